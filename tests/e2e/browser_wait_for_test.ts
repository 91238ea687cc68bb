/**
 * browser_wait_for end to end: real hub, real Chromium with the extension, the test web app's
 * `/wait/` pages (wait_pages.ts) on 127.0.0.1. Text that shows 500 ms after a click, text in a
 * cross-origin frame (`localhost`, same port), textGone, a /regex/i, a toast that becomes visible,
 * hidden and detached (by selector and by its ref), hidden text that never satisfies `text` (the
 * WAIT_TIMEOUT then says what the page showed), a bad regex and one that could backtrack for ever,
 * text the next page shows after a click navigates the tab while the wait runs, and textGone on a
 * frame that still shows the text but is busy (it must time out, not succeed).
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "browser_wait_for waits for text in any frame and for elements", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/wait/page");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  const waitFor = async (args: Record<string, unknown>, what: string) =>
    ok(await call("browser_wait_for", args), what);
  const click = async (selector: string, extra: Record<string, unknown> = {}) =>
    ok(await call("browser_click_element", { selector, ...extra }), `click ${selector}`);

  await t.step("text that shows 500 ms after a click; then textGone and a /regex/i", async () => {
    await click("#order");
    const shown = await waitFor({ text: "Order placed" }, "text");
    assertEquals([shown.tabId, shown.matched, shown.element], [tabId, "text", undefined]);
    assertEquals(typeof shown.waitedMs, "number");
    assertEquals(await page.textContent("#status"), "Order placed: #4711");
    const regex = await waitFor({ text: "/order PLACED: #\\d+/i", timeoutMs: 0 }, "regex");
    assertEquals(regex.matched, "text");
    await click("#order");
    const gone = await waitFor({ textGone: "Loading…" }, "textGone");
    assertEquals(gone.matched, "textGone");
    assertEquals(await page.textContent("#status"), "Order placed: #4711");
  });

  await t.step("text inside a cross-origin frame counts", async () => {
    await click("#pay", { frame: "#pay" });
    const paid = await waitFor({ text: "Payment accepted" }, "frame text");
    assertEquals(paid.matched, "text");
    const frame = page.frames().find((f) => f.url().includes("localhost"));
    assertEquals(await frame?.textContent("#paid"), "Payment accepted");
  });

  await t.step("hidden text never satisfies text; WAIT_TIMEOUT says what it saw", async () => {
    await click("#order"); // the page's text below, whichever steps ran before
    await waitFor({ text: "Order placed" }, "the order's text");
    for (const hidden of ["Secret code", "Off-screen note"]) {
      failed(await call("browser_wait_for", { text: hidden, timeoutMs: 600 }), {
        status: 422,
        code: "WAIT_TIMEOUT",
        category: "timeout",
        message: new RegExp(
          `^"${hidden}" did not show on tab ${tabId} \\(any frame\\) within 600 ms\\. ` +
            'The page showed "Wait page Order placed: #4711 Order Show Hide Remove Next.*"\\. ' +
            "Text hidden from people does not count",
        ),
      });
    }
    const near = failed(await call("browser_wait_for", { text: "Order shipped", timeoutMs: 0 }), {
      status: 422,
      code: "WAIT_TIMEOUT",
    });
    assertMatch(near.message, /The page showed "Wait page Order placed: #4711/);
    failed(await call("browser_wait_for", { textGone: "Wait page", timeoutMs: 300 }), {
      status: 422,
      code: "WAIT_TIMEOUT",
      message: /^"Wait page" was still on tab \d+ after 300 ms: "Wait page Order placed/,
    });
  });

  await t.step("a bad regex is refused before anything waits", async () => {
    failed(await call("browser_wait_for", { text: "/(unclosed/" }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      category: "validation",
      message: /"\/\(unclosed\/" is not a valid regular expression/,
    });
    // A regex that backtracks for ever on "aaaa…!" would freeze the tab: refused at once.
    failed(await call("browser_wait_for", { text: "/(a+)+$/" }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /^"\/\(a\+\)\+\$\/" is refused: "\(a\+\)\+" is a repeat inside a repeat/,
    });
    // So are a repeated choice and more than two unbounded repeats (R4 N3).
    for (
      const [text, why] of [
        ["/(a|[ab])+$/", /is a repeated group with a choice/],
        ["/a*a*a*b/", /has more than 2 unbounded repeats/],
      ] as const
    ) {
      failed(await call("browser_wait_for", { text }), {
        status: 400,
        code: "INVALID_ARGUMENTS",
        message: why,
      });
    }
  });

  await t.step("a selector becomes visible, hidden, then detached", async () => {
    failed(await call("browser_wait_for", { selector: "#toast", timeoutMs: 300 }), {
      status: 422,
      code: "WAIT_TIMEOUT",
      message: /^The element of selector "#toast" was not visible .*1 matching element, hidden/,
    });
    await click("#show");
    const visible = await waitFor({ selector: "#toast" }, "visible");
    assertEquals(visible.matched, "state");
    assertEquals([visible.element.tag, visible.element.text], ["div", "Saved!"]);
    assertMatch(visible.element.ref, /^e\d+$/);
    const byRef = await waitFor({ ref: visible.element.ref }, "ref visible");
    assertEquals([byRef.element.ref, byRef.element.text], [visible.element.ref, "Saved!"]);
    await click("#hide");
    const hidden = await waitFor({ selector: "#toast", state: "hidden" }, "hidden");
    assertEquals([hidden.matched, hidden.element.ref], ["state", visible.element.ref]);
    await click("#remove");
    const detached = await waitFor({ selector: "#toast", state: "detached" }, "detached");
    assertEquals([detached.matched, detached.element], ["state", undefined]);
    // The toast's ref: its element left the page, so it is detached (and hidden), not visible.
    const ref = visible.element.ref;
    assertEquals((await waitFor({ ref, state: "detached" }, "ref detached")).matched, "state");
    assertEquals((await waitFor({ ref, state: "hidden" }, "ref hidden")).matched, "state");
    failed(await call("browser_wait_for", { ref }), {
      status: 422,
      code: "REF_STALE",
      message: /is stale/,
    });
  });

  await t.step("text the next page shows, after a click navigates during the wait", async () => {
    await click("#next", { waitForLoad: false });
    const welcome = await waitFor({ text: "Welcome to the next page" }, "after navigation");
    assertEquals(welcome.matched, "text");
    assert(page.url().endsWith("/wait/next"), page.url());
  });

  // Last: the busy frame's process stays busy for BUSY_MS after this step.
  await t.step("textGone on a frame that shows the text but is busy times out", async () => {
    const busy = await e2e.open("/wait/busy");
    const busyTab = await tabIdOf(e2e, busy);
    const onBusy = (name: string, args: Record<string, unknown>) =>
      callTool(e2e, name, { tabId: busyTab, ...args });
    const shown = ok(await onBusy("browser_wait_for", { text: "STILL_PROCESSING" }), "shown");
    assertEquals(shown.matched, "text");
    ok(await onBusy("browser_click_element", { selector: "#work", frame: "#busy" }), "work");
    const gone = failed(
      await onBusy("browser_wait_for", { textGone: "STILL_PROCESSING", timeoutMs: 1500 }),
      { status: 422, code: "WAIT_TIMEOUT" },
    );
    assertMatch(
      gone.message,
      /^"STILL_PROCESSING" could not be seen gone from tab \d+ within 1500 ms: the frame http:\/\/localhost:\d+\/wait\/busyframe did not answer/,
    );
  });
});
