/**
 * browser_snapshot and refs end to end (issue 29's acceptance list): real hub, real Chromium with
 * the extension, the test web app's `/snap/…` pages (snapshot_pages.ts, snapshot_more_pages.ts) opened on 127.0.0.1. Each
 * step takes a snapshot and acts by the refs it gave: a form in a same-origin iframe is filled and
 * sent; "Pay" in a cross-origin iframe (`localhost`, same port) is clicked and the top page counts
 * it; a web component's shadow text and button are outlined and the button clicked; frames nested
 * 3 deep nest in the outline and the innermost button is clicked; no hidden text (nor a hidden
 * shadow-root frame's) reaches the snapshot or the page text while text below the fold does; after
 * a re-render the removed item's ref fails with REF_STALE and `since` lists the change; a long outline is read in parts with
 * `offset`; `interactiveOnly` is smaller; `frame`, `selector` and `ref` outline a subtree with the
 * same refs; a name over 150 characters is cut with "…"; each `:hover` menu's trigger has a named
 * line with a ref, and `includeHidden` lists its links with refs that click; a click by ref that navigates is followed
 * by a snapshot of the new page at once. Back/forward 1→2→3 is browser_history_test.ts.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import {
  bytes,
  frameAt,
  framePart,
  lineOf,
  outlineLines,
  refOf,
  tabCalls,
} from "../helpers/outline.ts";
import { failed, tabIdOf } from "../helpers/tool_replies.ts";
import { EVIL_MARKER } from "../fixtures/web_app/snapshot_pages.ts";
import {
  FOLD_MARKER,
  HIDDEN_MARKERS,
  LONG_NAME,
  MENU_LINKS,
  SEEN_MARKERS,
} from "../fixtures/web_app/snapshot_more_pages.ts";

/** Opens `path` for one step: the page, its tab id and the calls for that tab (tabCalls). */
type Open = (path: string) => Promise<{ page: Page; tabId: number } & ReturnType<typeof tabCalls>>;

e2eTest(import.meta.url, "browser_snapshot outlines every frame and shadow root; refs act", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  // The pages a step opened: closed when it ends, failed or not, so a later step that opens the
  // same URL still finds one tab by it.
  const opened: Page[] = [];
  const open = async (path: string) => {
    const page = await e2e.open(path);
    opened.push(page);
    const tabId = await tabIdOf(e2e, page);
    return { page, tabId, ...tabCalls(e2e, tabId) };
  };
  const step = (name: string, fn: () => Promise<void>) =>
    t.step(name, async () => {
      try {
        await fn();
      } finally {
        await Promise.all(opened.splice(0).map((page) => page.close().catch(() => {})));
      }
    });

  // Each step's checks are in the function it calls, below, in the same order.
  await step(
    "a form in a same-origin iframe: nested in the outline, filled by ref",
    () => formInFrame(open),
  );
  await step("a button in a cross-origin iframe is clicked by ref", () => crossOriginFrame(open));
  await step(
    "a web component's open shadow root: text and button, clicked by ref",
    () => shadowRoot(open),
  );
  await step(
    "frames nested 3 deep nest in the outline; the innermost button is clicked",
    () => nestedFrames(open),
  );
  await step(
    "a hidden iframe in a shadow root: its content never shows (R2#1)",
    () => hiddenShadowFrame(open, "/snap/shadow-frames"),
  );
  await step(
    "a hidden iframe in a closed shadow root, a hidden object and embed: their content never shows",
    () => hiddenClosedAndObjectFrames(open),
  );
  await step("hidden text reaches neither the snapshot nor the page text", () => hiddenText(open));
  await step(
    "a re-render: a removed element's ref is stale; since lists the change",
    () => rerender(open),
  );
  await step(
    "a long outline is read in parts with offset; interactiveOnly is smaller",
    () => paging(open),
  );
  await step("a subtree by frame, selector or ref; a long name is cut", () => subtree(open));
  await step(
    "hover menu triggers get a named line with a ref; includeHidden's menu links click",
    () => hoverMenus(open),
  );
  await step(
    "a click by ref that navigates, then a snapshot of the new page at once",
    () => clickThenRead(open, e2e),
  );
});

async function formInFrame(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/frame-form");
  const form = await frameAt(page, "/snap/signup", "#result");
  const shot = await snapshot();
  assertEquals(shot.text.split("\n")[0], `# Sign up — ${page.url()}`);
  assertEquals([shot.url, shot.title, shot.truncated], [page.url(), "Sign up", false]);
  assertEquals(shot.totalBytes, bytes(shot.text));
  const iframe = lineOf(shot.text, /^- iframe "Signup" \[ref=f\d+\]$/);
  const email = lineOf(shot.text, /^- textbox "Email"/);
  assert(email.indent > iframe.indent, "the form is nested under its iframe");
  assertMatch(email.ref!, /^f\d+e\d+$/);
  assertEquals(framePart(email.ref!), iframe.ref);
  const password = refOf(shot.text, /^- textbox "Password" .*\[password\]/);
  const terms = refOf(shot.text, /^- checkbox "Accept the terms"/);
  const plan = refOf(shot.text, /^- combobox "Plan"/);
  const send = refOf(shot.text, /^- button "Create account"/);
  for (const ref of [password, terms, plan, send]) assertEquals(framePart(ref), iframe.ref);

  await call("browser_type_text", { ref: email.ref, text: "ada@example.com" });
  await call("browser_type_text", { ref: password, text: "secret" });
  await call("browser_click_element", { ref: terms });
  await call("browser_select_option", { ref: plan, value: "pro" });
  await call("browser_click_element", { ref: send });
  assertEquals(
    await form.textContent("#result"),
    "Sent ada@example.com / 6 chars / terms true / pro",
  );
  const after = await snapshot();
  assertMatch(lineOf(after.text, /^- textbox "Email"/).text, /\[value="ada@example\.com"\]/);
  assertMatch(lineOf(after.text, /^- checkbox "Accept the terms"/).text, /\[checked\]/);
  assertEquals(refOf(after.text, /^- textbox "Email"/), email.ref, "refs stay while alive");
}

async function crossOriginFrame(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/cross");
  const pay = await frameAt(page, "localhost", "#pay");
  const shot = await snapshot();
  const iframe = lineOf(shot.text, /^- iframe "Payment" \[ref=f\d+\]$/);
  const button = lineOf(shot.text, /^- button "Pay"/);
  assert(button.indent > iframe.indent, shot.text);
  assertEquals(framePart(button.ref!), iframe.ref);
  const clicked = await call("browser_click_element", { ref: button.ref });
  assertEquals(clicked.clicked, true);
  await call("browser_click_element", { ref: button.ref });
  assertEquals(await pay.textContent("#paid"), "2");
  await eventually(
    async () => (await page.textContent("#count")) === "2",
    async () => `the top page counted ${await page.textContent("#count")} payments`,
  );
  const text = (await call("browser_get_page_text")).text as string;
  assert(text.includes("Paid 2 times"), text);
  assert(text.includes("Payments: 2"), text);
}

async function shadowRoot(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/shadow");
  const shot = await snapshot();
  const at = (word: string) => {
    const i = shot.text.indexOf(word);
    assert(i >= 0, `"${word}" is not in:\n${shot.text}`);
    return i;
  };
  // composed-tree order: the shadow text, its button, the slotted light text, then the page
  assert(at("Shadow greeting text") < at("Shadow action"), shot.text);
  assert(at("Shadow action") < at("Slotted light text"), shot.text);
  assert(at("Slotted light text") < at("Shadow clicks"), shot.text);
  const button = refOf(shot.text, /^- button "Shadow action"/);
  assertMatch(button, /^e\d+$/);
  await call("browser_click_element", { ref: button });
  assertEquals(await page.textContent("#clicks"), "1");
}

async function nestedFrames(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/nest?d=3");
  const inner = await frameAt(page, "level=3", "#deepest");
  const shot = await snapshot();
  const levels = [1, 2, 3].map((k) =>
    lineOf(shot.text, new RegExp(`^- iframe "Level ${k}" \\[ref=f\\d+\\]$`))
  );
  const button = lineOf(shot.text, /^- button "Deepest"/);
  assert(levels[0].indent < levels[1].indent, shot.text);
  assert(levels[1].indent < levels[2].indent, shot.text);
  assert(levels[2].indent < button.indent, shot.text);
  assertMatch(button.ref!, /^f\d+e\d+$/);
  assertEquals(framePart(button.ref!), levels[2].ref);
  assertEquals(new Set(levels.map((l) => l.ref)).size, 3, "each frame has its own ref");
  for (const k of [1, 2, 3]) {
    assert(shot.text.includes(`Level ${k} text`), `level ${k}'s text:\n${shot.text}`);
  }
  await call("browser_click_element", { ref: button.ref });
  assertEquals(await inner.textContent("#deep-clicks"), "1");
}

async function hiddenShadowFrame(open: Open, path: string): Promise<void> {
  const calls = await open(path);
  await frameAt(calls.page, "/snap/shadow-evil", "button");
  await frameAt(calls.page, "/snap/shadow-bank", "p");
  const shot = await noHiddenFrameText(calls);
  // The bank frame cannot be told apart from the hidden one: its line says it was not read.
  lineOf(shot.text, /^- iframe "Bank card form" \[not read\] \[ref=e\d+\]$/);
  assert(!/\[ref=f\d+/.test(shot.text), shot.text);
}

/** R4 N1, N2: a closed shadow root's hidden iframe; hidden `<object>` and `<embed>` frames. */
async function hiddenClosedAndObjectFrames(open: Open): Promise<void> {
  await hiddenShadowFrame(open, "/snap/shadow-frames-closed");
  const calls = await open("/snap/object-frames");
  await frameAt(calls.page, "/snap/shadow-evil?o", "button");
  await frameAt(calls.page, "/snap/shadow-bank", "p");
  await noHiddenFrameText(calls, "Card number form");
}

/**
 * The tab's snapshot, page text and browser_wait_for show none of the hidden frame's text or
 * button; page text shows `seen` (a visible frame's). Answers the snapshot.
 */
async function noHiddenFrameText(
  { snapshot, call, raw }: ReturnType<typeof tabCalls>,
  seen?: string,
) {
  const shot = await snapshot();
  const text = (await call("browser_get_page_text")).text as string;
  for (const [what, read] of [["snapshot", shot.text], ["page text", text]]) {
    assert(!read.includes(EVIL_MARKER), `${what} shows the hidden frame:\n${read}`);
    assert(!read.includes("Confirm transfer"), `${what} shows the hidden frame:\n${read}`);
  }
  if (seen) assert(text.includes(seen), `page text lacks ${seen}:\n${text}`);
  const waited = await raw("browser_wait_for", { text: EVIL_MARKER, timeoutMs: 1_500 });
  failed(waited, { status: 422, code: "WAIT_TIMEOUT" });
  return shot;
}

async function hiddenText(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/hidden");
  await frameAt(page, "/snap/hidden-frame", "p");
  const shot = await snapshot({ maxBytes: 200_000 });
  const text = (await call("browser_get_page_text")).text as string;
  for (const [what, read] of [["snapshot", shot.text], ["page text", text]]) {
    const leaked = HIDDEN_MARKERS.filter((marker) => read.includes(marker));
    assertEquals(leaked, [], `${what} shows hidden text:\n${read}`);
    assert(read.includes(FOLD_MARKER), `${what} lacks the text below the fold:\n${read}`);
    assert(read.includes("Visible paragraph"), `${what}:\n${read}`);
    assert(read.includes("Visible shadow text"), `${what}:\n${read}`);
    for (const seen of SEEN_MARKERS) {
      assert(read.includes(seen), `${what} lacks ${seen}:\n${read}`);
    }
  }
  refOf(shot.text, /^- button "Visible button"/);
  // browser_wait_for reads by the same rule: hidden text is gone at once, seen text is there.
  for (const textGone of ["MARKER-transparent", "MARKER-tiny-font", "MARKER-clip-inset"]) {
    const waited = await call("browser_wait_for", { textGone, timeoutMs: 3_000 });
    assertEquals(waited.matched, "textGone", textGone);
  }
  const seen = await call("browser_wait_for", { text: "Recoloured child", timeoutMs: 3_000 });
  assertEquals(seen.matched, "text");
  const all = await snapshot({ maxBytes: 200_000, includeHidden: true });
  for (const marker of ["MARKER-display-none", "MARKER-opacity-zero", "MARKER-hidden-button"]) {
    assert(all.text.includes(marker), `includeHidden lacks ${marker}:\n${all.text}`);
  }
}

async function rerender(open: Open): Promise<void> {
  const { page, snapshot, call, raw } = await open("/snap/rerender");
  const first = await snapshot();
  const [a, b, c] = ["A", "B", "C"].map((k) =>
    refOf(first.text, new RegExp(`^- button "Item ${k}"`))
  );
  await call("browser_click_element", { ref: refOf(first.text, /^- button "Re-render"/) });
  assertEquals(await page.locator("#items button").allTextContents(), [
    "Item A",
    "Item C edited",
    "Item D",
  ]);
  const stale = failed(await raw("browser_click_element", { ref: b }), {
    status: 422,
    code: "REF_STALE",
    category: "validation",
    message: /browser_snapshot/,
  });
  assert(stale.message.includes(b), stale.message);
  const edited = await call("browser_click_element", { ref: c });
  assertEquals(edited.text, "Item C edited", "a changed element keeps its ref");

  const changes = await snapshot({ since: first.snapshotId });
  const lines = changes.text.split("\n");
  assertEquals(lines[0], `# Re-render — ${page.url()}`);
  assert(lines.includes(`# changes since ${first.snapshotId}`), changes.text);
  assertMatch(changes.text, new RegExp(`^- +- button "Item B" \\[ref=${b}\\]$`, "m"));
  assertMatch(changes.text, /^\+ +- button "Item D" \[ref=e\d+\]$/m);
  assertMatch(changes.text, new RegExp(`^~ +- button "Item C edited" \\[ref=${c}\\]$`, "m"));
  assert(!changes.text.includes("Item A"), `an unchanged line is listed:\n${changes.text}`);
  assertEquals(changes.totalBytes, bytes(changes.text));

  failed(await raw("browser_snapshot", { since: "s999999" }), {
    status: 422,
    code: "REF_STALE",
    message: /snapshot/,
  });
  // a ref of an earlier document: the page is loaded again
  await call("browser_navigate_tab", { url: page.url() });
  failed(await raw("browser_click_element", { ref: a }), { status: 422, code: "REF_STALE" });
  const fresh = await snapshot();
  assert(refOf(fresh.text, /^- button "Item A"/) !== a, "a new document's refs are new");
  failed(await raw("browser_snapshot", { since: changes.snapshotId }), {
    status: 422,
    code: "REF_STALE",
  });
}

async function paging(open: Open): Promise<void> {
  const { page, snapshot } = await open("/snap/big?n=3000");
  const elements = await page.evaluate<number>('document.getElementsByTagName("*").length');
  assert(elements > 2_500 && elements < 3_500, `${elements} elements`);
  const full = await snapshot({ maxBytes: 200_000 });
  assertEquals([full.truncated, full.nextOffset], [false, undefined]);
  assertEquals(full.totalBytes, bytes(full.text));
  assertEquals(
    outlineLines(full.text).filter((l) => /^- button "Edit"/.test(l.text)).length,
    320,
  );
  assertMatch(full.text, /^ *- row "1\W+Person 1\W+Paris\b[^"]*" \[ref=e\d+\]$/m);

  const first = await snapshot();
  assert(first.truncated, "the default 20,000 bytes cut it");
  assert(bytes(first.text) <= 20_000, `${bytes(first.text)} bytes`);
  const parts = [first.text];
  let offset = first.nextOffset;
  while (offset !== undefined) {
    const part = await snapshot({ offset, maxBytes: 20_000 });
    assert(bytes(part.text) <= 20_000, `${bytes(part.text)} bytes from ${offset}`);
    assertEquals(part.totalBytes, full.totalBytes);
    parts.push(part.text);
    if (!part.truncated) break;
    assertEquals(part.nextOffset, offset + bytes(part.text));
    offset = part.nextOffset;
  }
  assertEquals(first.nextOffset, bytes(first.text));
  assertEquals(parts.join(""), full.text, "the parts make the whole outline");
  assert(parts.length >= 2);

  const interactive = await snapshot({ maxBytes: 200_000, interactiveOnly: true });
  assert(
    interactive.totalBytes < full.totalBytes * 0.8,
    `interactiveOnly ${interactive.totalBytes} bytes vs ${full.totalBytes}`,
  );
  assertEquals(
    outlineLines(interactive.text).filter((l) => /^- button "Edit"/.test(l.text)).length,
    320,
  );
  const refs = outlineLines(interactive.text).filter((l) => l.ref).length;
  assert(refs >= outlineLines(interactive.text).length / 2, interactive.text.slice(0, 2000));
}

async function subtree(open: Open): Promise<void> {
  const form = await open("/snap/frame-form");
  await frameAt(form.page, "/snap/signup", "#result");
  const whole = await form.snapshot();
  const frameRef = refOf(whole.text, /^- iframe "Signup"/);
  const email = refOf(whole.text, /^- textbox "Email"/);
  const inFrame = await form.snapshot({ frame: frameRef });
  assert(!inFrame.text.includes('heading "Sign up"'), inFrame.text);
  assertEquals(refOf(inFrame.text, /^- textbox "Email"/), email, "the same refs in a subtree");
  assert(inFrame.text.includes("Not sent"), inFrame.text);
  const formOnly = await form.snapshot({ frame: "iframe[title=Signup]", selector: "form" });
  assertEquals(refOf(formOnly.text, /^- button "Create account"/), refOf(whole.text, /"Create/));
  assert(!formOnly.text.includes("Not sent"), formOnly.text);

  const big = await open("/snap/big?n=3000");
  const full = await big.snapshot();
  const nav = await big.snapshot({ ref: refOf(full.text, /^- navigation "Sections"/) });
  const links = outlineLines(nav.text).filter((l) => l.text.startsWith("- link "));
  assertEquals(links.length, 150);
  assert(!nav.text.includes("Person 1"), nav.text.slice(0, 2000));
  const navText = await big.call("browser_get_page_text", {
    ref: refOf(full.text, /^- navigation "Sections"/),
  });
  assert((navText.text as string).startsWith("Section 1"), navText.text);

  const long = await open("/snap/long-name");
  const line = lineOf((await long.snapshot()).text, /^- button "Long name/).text;
  const name = /^- button "([^"]*)"/.exec(line)![1];
  assert(name.endsWith("…"), line);
  assert(name.length <= 151 && name.length >= 140, `${name.length} characters: ${line}`);
  assert(LONG_NAME.startsWith(name.slice(0, -1)), line);
}

async function hoverMenus(open: Open): Promise<void> {
  const { page, snapshot, call } = await open("/snap/menus");
  const shot = await snapshot();
  for (
    const trigger of ['generic "Account ▾"', 'generic "Settings ▾"', 'listitem "Products"']
  ) {
    refOf(shot.text, new RegExp(`^- ${trigger} \\[ref=e\\d+\\]$`));
  }
  lineOf(shot.text, /^- text: Preferences:$/);
  for (const name of Object.values(MENU_LINKS)) {
    assert(!shot.text.includes(name), `the hidden ${name} is shown:\n${shot.text}`);
  }
  const menus = page.url();
  for (const [word, name] of Object.entries(MENU_LINKS)) {
    const all = await snapshot({ includeHidden: true });
    const link = refOf(all.text, new RegExp(`^- link "${name}"`));
    const clicked = await call("browser_click_element", { ref: link });
    assertEquals([clicked.navigated, clicked.title], [true, `Target ${word}`]);
    await call("browser_navigate_tab", { url: menus });
  }
}

async function clickThenRead(open: Open, e2e: E2E): Promise<void> {
  const { snapshot, call } = await open("/nav");
  const shot = await snapshot();
  const link = lineOf(shot.text, /^- link "Go to the target"/);
  assertMatch(link.text, /\[url="[^"]*nav-target[^"]*"\]/);
  const clicked = await call("browser_click_element", { ref: link.ref });
  const target = new URL("/nav-target?name=link&ms=400", e2e.app.url).href;
  assertEquals([clicked.navigated, clicked.url, clicked.title], [true, target, "Target link"]);
  const next = await snapshot();
  assertEquals(next.text.split("\n")[0], `# Target link — ${target}`);
  assertMatch(next.text, /^- heading "Arrived by link" \[level=1\]/m);
}
