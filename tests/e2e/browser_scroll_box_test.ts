/**
 * browser_scroll inside an element end to end: real hub, real Chromium with the extension, the test
 * web app's `/scroll-box` page (scroll_pages.ts), a virtualized list in a 200-pixel box. A selector
 * with y or `to` scrolls the box, not the page, the list renders rows that were not there, and the
 * answer says how far the box went and whether more lies below; an element that does not scroll
 * fails with NOT_SCROLLABLE naming the box around it.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "browser_scroll scrolls inside an element's own scroll box", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/scroll-box?tab=scroll-box");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  /** The rows the list shows now, read as an agent would: the box's page text. */
  const rows = async () => {
    const text = ok(await call("browser_get_page_text", { selector: "#list" }), "text").text;
    return (text as string).split("\n").map((line) => line.trim()).filter(Boolean);
  };

  await t.step("a selector and y scroll the list by that many pixels", async () => {
    const before = await rows();
    assertEquals(before[0], "Item 1");
    assert(!before.includes("Item 25"), before.join("|"));
    const by = ok(await call("browser_scroll", { selector: "#list", y: 400 }), "y 400");
    assertEquals(by.element, {
      tag: "div",
      scrollLeft: 0,
      scrollTop: 400,
      scrollWidth: by.element.clientWidth,
      scrollHeight: 20_000,
      clientWidth: by.element.clientWidth,
      clientHeight: 200,
      moreLeft: false,
      moreRight: false,
      moreAbove: true,
      moreBelow: true,
    });
    assertEquals([by.scrollY, await page.evaluate<number>("scrollY")], [0, 0], "page stays");
    assertEquals(await page.evaluate<number>("document.getElementById('list').scrollTop"), 400);
    ok(await call("browser_wait_for_element", { selector: "#item-25" }), "row 25 rendered");
    const after = await rows();
    assertEquals(after[0], "Item 21");
    assert(after.includes("Item 25") && !after.includes("Item 1"), after.join("|"));
  });

  await t.step("to bottom reaches the list's end: the last row, nothing more below", async () => {
    const bottom = ok(await call("browser_scroll", { selector: "#list", to: "bottom" }), "end");
    assertEquals(
      [bottom.element.scrollTop, bottom.element.moreAbove, bottom.element.moreBelow],
      [19_800, true, false],
    );
    ok(await call("browser_wait_for_element", { selector: "#item-1000" }), "last row rendered");
    assertEquals((await rows()).at(-1), "Item 1000");
    const top = ok(await call("browser_scroll", { selector: "#list", to: "top" }), "top");
    assertEquals([top.element.scrollTop, top.element.moreAbove], [0, false]);
    const read = ok(await call("browser_scroll", { selector: "#list", y: 0 }), "read");
    assertEquals([read.element.scrollTop, read.element.moreBelow], [0, true]);
  });

  await t.step(
    "without x/y or to the selector's element is brought into view as before",
    async () => {
      // The list renders its rows on its scroll event, a frame after the scroll to the top.
      ok(await call("browser_wait_for_element", { selector: "#item-5" }), "row 5 rendered");
      const shown = ok(await call("browser_scroll", { selector: "#item-5" }), "into view");
      assertEquals(shown.element, undefined);
      assertEquals(Object.keys(shown).sort(), [
        "scrollHeight",
        "scrollWidth",
        "scrollX",
        "scrollY",
        "tabId",
        "viewportHeight",
        "viewportWidth",
      ]);
    },
  );

  await t.step("an element that does not scroll fails with NOT_SCROLLABLE", async () => {
    failed(await call("browser_scroll", { selector: "#item-5", y: 100 }), {
      status: 422,
      code: "NOT_SCROLLABLE",
      message:
        /^"#item-5" matches a <div> that does not scroll vertically.*nearest scrolling ancestor is div#list/,
    });
    failed(await call("browser_scroll", { selector: "#note", to: "bottom" }), {
      status: 422,
      code: "NOT_SCROLLABLE",
      message:
        /No element around it scrolls either.*Without a selector, x\/y and to scroll the page/,
    });
    assertEquals(await page.evaluate<number>("document.getElementById('list').scrollTop"), 0);
  });
});
