/**
 * Web components end to end: real hub, real Chromium with the extension, the test web app's
 * `/shadow` page (shadow_pages.ts). The element tools reach into open shadow roots, two deep, with
 * a plain selector and with `host >>> inner`; page text includes shadow text with slots filled;
 * a closed shadow root stays out; waiting sees an element that appears inside a shadow root.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "the element tools see into open shadow roots", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/shadow?tab=shadow");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  const log = () => page.locator("#log li").allTextContents();

  await t.step(
    "a plain selector in browser_query_elements matches inside shadow roots",
    async () => {
      const buttons = ok(await call("browser_query_elements", { selector: "button" }), "buttons");
      assertEquals(buttons.total, 3);
      const seen = buttons.elements.map((e: { text: string; index: number }) => [e.index, e.text]);
      assertEquals(seen, [[0, "Press"], [1, "Deep"], [2, "Add later"]], "composed-tree order");
      assertEquals(buttons.elements[0].attributes, { id: "card-button" });
      assert(buttons.elements[0].visible);
      const pierced = ok(
        await call("browser_query_elements", { selector: "x-card >>> x-inner >>> .deep" }),
        "pierced",
      );
      assertEquals(pierced.elements.map((e: { text: string }) => e.text), [
        "Deep text two levels down",
      ]);
    },
  );

  await t.step(
    "browser_click_element with host >>> inner clicks inside the shadow root",
    async () => {
      const card = ok(
        await call("browser_click_element", { selector: "x-card >>> button" }),
        "card",
      );
      assertEquals([card.clicked, card.tag, card.text], [true, "button", "Press"]);
      ok(
        await call("browser_click_element", { selector: "x-card >>> x-inner >>> button" }),
        "deep",
      );
      ok(await call("browser_hover_element", { selector: "x-card >>> .inner" }), "hover");
      assertEquals(await log(), ["card", "deep"]);
    },
  );

  await t.step("typing, keys, options and scrolling reach into the shadow root", async () => {
    const typed = ok(
      await call("browser_type_text", { selector: "x-card >>> .note", text: "hi" }),
      "type",
    );
    assertEquals([typed.tag, typed.value], ["input", "hi"]);
    const key = ok(await call("browser_press_key", { key: "!" }), "key on the focused field");
    assertEquals([key.target.tag, key.effect], ["input", "inserted"]);
    const chosen = ok(
      await call("browser_select_option", { selector: "x-card >>> select", label: "M" }),
      "select",
    );
    assertEquals(chosen.selected, [{ value: "M", label: "M", index: 1 }]);
    ok(await call("browser_scroll", { selector: "x-card >>> x-inner >>> .deep" }), "scroll");
    // playwright's CSS locators pierce open shadow roots themselves.
    const read = (css: string) => page.locator(`x-card ${css}`).inputValue();
    assertEquals([await read(".note"), await read(".size")], ["hi!", "M"]);
  });

  await t.step("browser_get_page_text includes open shadow roots, slots filled", async () => {
    const text = ok(await call("browser_get_page_text", {}), "text").text as string;
    const order = [
      "Components",
      "Card title",
      "Shadow text inside the card",
      "Press",
      "Deep text two levels down",
      "Light child text",
      "Add later",
    ].map((part) => text.indexOf(part));
    assert(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), `${order}\n${text}`);
    assert(!text.includes("Closed secret"), "a closed shadow root stays out");
    const inner = ok(await call("browser_get_page_text", { selector: "x-card >>> p" }), "p");
    assertEquals(inner.text, "Shadow text inside the card");
    const html = ok(
      await call("browser_get_page_html", { selector: "x-card >>> x-inner" }),
      "html",
    );
    assertEquals(html.html, "<x-inner></x-inner>");
  });

  await t.step("bad parts and hosts without an open shadow root fail clearly", async () => {
    failed(await call("browser_click_element", { selector: "x-card >>> b[[" }), {
      status: 422,
      code: "INVALID_SELECTOR",
      message: /^"x-card >>> b\[\[" is not a valid selector: part 2 of 2 \("b\[\["\)/,
    });
    failed(await call("browser_query_elements", { selector: "x-card >>>" }), {
      status: 422,
      code: "INVALID_SELECTOR",
      message: /part 2 of 2 is empty/,
    });
    failed(await call("browser_click_element", { selector: "x-vault >>> p" }), {
      status: 422,
      code: "ELEMENT_NOT_FOUND",
      message: /"x-vault" .*has no open shadow root.*closed shadow root cannot be searched/,
    });
  });

  await t.step("browser_wait_for_element sees an element added inside a shadow root", async () => {
    ok(await call("browser_click_element", { selector: "#add" }), "add");
    const waited = ok(
      await call("browser_wait_for_element", { selector: "#late-shadow", timeoutMs: 5_000 }),
      "wait",
    );
    assertEquals([waited.element.tag, waited.element.text], ["span", "Late in shadow"]);
    const pierced = ok(
      await call("browser_wait_for_element", { selector: "x-card >>> #late-shadow" }),
      "wait >>>",
    );
    assertEquals(pierced.element.attributes, { id: "late-shadow" });
    // A plain selector with no match in the document takes the first one inside a shadow root.
    const plain = ok(await call("browser_click_element", { selector: ".deep-button" }), "plain");
    assertEquals(plain.text, "Deep");
    assertEquals(await log(), ["card", "deep", "deep"]);
  });
});
