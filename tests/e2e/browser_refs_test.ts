/**
 * Refs from browser_query_elements, end to end: real hub, real Chromium with the extension, the
 * test web app's `/frames` (a form in a same-origin iframe, a button in a cross-origin one),
 * `/shadow` (web components) and `/scroll-box` (a virtualized list) pages. Each element a query
 * describes carries a ref (`e5` in the top document, `f2e3` in a frame's), and every element tool
 * acts on it in its own document, wherever that is; `frame: "f<k>"` runs in that frame. A ref whose
 * element was re-rendered, or whose page was replaced, fails with REF_STALE, never reaching another
 * element; ref with selector, or with another frame, is refused naming both. Steps 4 and 5 reuse
 * the refs steps 1 and 2 read (`topRefs`, `formFrame`), so they run only after those.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { framePart } from "../helpers/outline.ts";

/** The element number of a ref: 5 of `f3e5`. */
const numberOf = (ref: string) => Number(/e(\d+)$/.exec(ref)![1]);

interface Described {
  tag: string;
  text: string;
  ref: string;
  attributes: Record<string, string | boolean>;
}

e2eTest(import.meta.url, "refs from browser_query_elements work in every frame and go stale", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/frames");
  const tabId = await tabIdOf(e2e, page);
  const raw = (name: string, args: Record<string, unknown>, tab = tabId) =>
    callTool(e2e, name, { tabId: tab, ...args });
  const call = async (name: string, args: Record<string, unknown>, tab = tabId) =>
    ok(await raw(name, args, tab), `${name} ${JSON.stringify(args)}`);
  const query = async (args: Record<string, unknown>, tab = tabId) =>
    (await call("browser_query_elements", args, tab)).elements as Described[];
  const frameText = async (urlPart: string, selector: string) => {
    const frame = page.frames().find((f) => f.url().includes(urlPart));
    assert(frame, `a frame at ${urlPart}`);
    return await frame.locator(selector).textContent();
  };
  await call("browser_wait_for_element", { frame: "#pay-frame", selector: "#pay" });
  let topRefs: string[] = [];

  await t.step("the top document: refs e<n> act on their element", async () => {
    const found = await query({ selector: "#name, #out" });
    topRefs = found.map((e) => e.ref);
    for (const ref of topRefs) assertMatch(ref, /^e\d+$/);
    const [name, out] = topRefs;
    assertEquals((await query({ selector: "#name" }))[0].ref, name, "an element keeps its ref");
    await call("browser_type_text", { ref: name, text: "Top typed" });
    assertEquals(await page.inputValue("#name"), "Top typed");
    assertEquals((await call("browser_get_page_text", { ref: out })).text, "Top out");
    const html = await call("browser_get_page_html", { ref: out });
    assert(html.html.startsWith('<p id="out">'), html.html);
    const self = await query({ ref: out });
    assertEquals([self.length, self[0].ref, self[0].text], [1, out, "Top out"]);
  });

  let formFrame = "";
  await t.step("a same-origin frame: refs from a frame query fill and send its form", async () => {
    const [form] = await query({ frame: "#form-frame", selector: "#details" });
    assertMatch(form.ref, /^f\d+e\d+$/);
    formFrame = framePart(form.ref);
    // the ref as the root of a query: its fields, each with a ref of the same frame
    const fields = await query({ ref: form.ref, selector: "input, select, button" });
    assertEquals(fields.map((e) => e.tag), ["input", "select", "button"]);
    for (const field of fields) assertEquals(framePart(field.ref), formFrame);
    const [name, size, send] = fields.map((e) => e.ref);
    const typed = await call("browser_type_text", { ref: name, text: "Ada" });
    assertEquals(typed.tag, "input");
    await call("browser_select_option", { ref: size, value: "l" });
    await call("browser_hover_element", { ref: send });
    const clicked = await call("browser_click_element", { ref: send });
    assertEquals([clicked.clicked, clicked.tag], [true, "button"]);
    assertEquals(await frameText("/frame-form", "#out"), "Hello Ada, l");
    const key = await call("browser_press_key", { ref: name, key: "!" });
    assertEquals(key.effect, "inserted");
    await call("browser_click_element", { ref: send, frame: formFrame }); // frame may repeat it
    assertEquals(await frameText("/frame-form", "#out"), "Hello Ada!, l");
    const [out] = await query({ frame: formFrame, selector: "#out" });
    assertEquals(framePart(out.ref), formFrame, "frame: f<k> runs in that frame");
    const waited = await call("browser_wait_for_element", { ref: out.ref });
    assertEquals(waited.element.ref, out.ref);
    assertEquals((await call("browser_get_page_text", { ref: out.ref })).text, "Hello Ada!, l");
    const whole = await call("browser_get_page_text", { frame: formFrame, selector: "#out" });
    assertEquals(whole.url, `${e2e.app.origin}/frame-form`);
    const html = await call("browser_get_page_html", { ref: size });
    assert(html.html.startsWith('<select id="size">'), html.html);
    assertEquals(await page.inputValue("#name"), "Top typed", "the top field is untouched");
  });

  await t.step("a cross-origin frame: its own k, clicked by ref", async () => {
    const [pay] = await query({ frame: "iframe[title=Payment]", selector: "#pay" });
    assertMatch(pay.ref, /^f\d+e\d+$/);
    const payFrame = framePart(pay.ref);
    assert(payFrame !== formFrame, "each frame document has its own k");
    const clicked = await call("browser_click_element", { ref: pay.ref });
    assertEquals([clicked.clicked, clicked.text], [true, "Pay"]);
    const cross = e2e.app.origin.replace("127.0.0.1", "localhost");
    assertEquals(await frameText("/frame-pay", "#status"), `Paid on ${cross}`);
    const status = await query({ frame: payFrame, selector: "p" });
    assertEquals(status.map((e) => e.text), [`Paid on ${cross}`]);
    assertEquals(framePart(status[0].ref), payFrame);
  });

  await t.step("ref with selector, or with another frame, is refused naming both", async () => {
    const [name] = topRefs;
    failed(await raw("browser_click_element", { ref: name, selector: "#name" }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /exactly one of ref or selector/,
    });
    failed(await raw("browser_type_text", { ref: name, frame: "#form-frame", text: "x" }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: new RegExp(`ref "${name}" without frame "#form-frame"`),
    });
  });

  await t.step("after the tab navigates, an old ref is REF_STALE", async () => {
    await call("browser_navigate_tab", { url: `${e2e.app.origin}/frames` });
    failed(await raw("browser_click_element", { ref: topRefs[0] }), {
      status: 422,
      code: "REF_STALE",
      category: "validation",
      message: /Ref "e\d+" is stale.*browser_snapshot/,
    });
    // the new page hands out refs above the old page's, and the old ones stay stale
    const fresh = await query({ selector: "h1, #name, #out" });
    const highest = Math.max(...topRefs.map(numberOf));
    for (const e of fresh) assert(numberOf(e.ref) > highest, `${e.ref} after ${topRefs}`);
    for (const ref of topRefs) {
      failed(await raw("browser_get_page_text", { ref }), { status: 422, code: "REF_STALE" });
    }
    // so does a frame ref of the old page
    failed(await raw("browser_query_elements", { frame: formFrame, selector: "#out" }), {
      status: 422,
      code: "REF_STALE",
    });
  });
  await page.close();

  await t.step("an open shadow root: refs of its elements", async () => {
    const shadow = await e2e.open("/shadow");
    const shadowTab = await tabIdOf(e2e, shadow);
    const [button] = await query({ selector: "x-card >>> #card-button" }, shadowTab);
    const [deep] = await query({ selector: "x-inner >>> .deep-button" }, shadowTab);
    const [note] = await query({ selector: "x-card >>> .note" }, shadowTab);
    const [size] = await query({ selector: "x-card >>> .size" }, shadowTab);
    for (const e of [button, deep, note, size]) assertMatch(e.ref, /^e\d+$/);
    await call("browser_click_element", { ref: button.ref }, shadowTab);
    await call("browser_click_element", { ref: deep.ref }, shadowTab);
    assertEquals(await shadow.locator("#log li").allTextContents(), ["card", "deep"]);
    await call("browser_type_text", { ref: note.ref, text: "noted" }, shadowTab);
    await call("browser_select_option", { ref: size.ref, label: "M" }, shadowTab);
    const values = await shadow.evaluate(
      `(() => { const root = document.querySelector("x-card").shadowRoot;
        return [root.querySelector(".note").value, root.querySelector(".size").value]; })()`,
    );
    assertEquals(values, ["noted", "M"]);
    // a re-rendered element: the page replaces the button, its ref is stale
    await shadow.evaluate(
      `(() => { const old = document.querySelector("x-card").shadowRoot.querySelector("#card-button");
        old.replaceWith(old.cloneNode(true)); })()`,
    );
    failed(await raw("browser_click_element", { ref: button.ref }, shadowTab), {
      status: 422,
      code: "REF_STALE",
      message: new RegExp(`Ref "${button.ref}" is stale`),
    });
    const [again] = await query({ selector: "x-card >>> #card-button" }, shadowTab);
    assert(again.ref !== button.ref, "the new element gets a new ref");
    await shadow.close();
  });

  await t.step("a scroll box by ref: x/y scroll inside it; re-rendered rows go stale", async () => {
    const list = await e2e.open("/scroll-box");
    const listTab = await tabIdOf(e2e, list);
    const [box] = await query({ selector: "#list" }, listTab);
    const [row] = await query({ selector: "#item-2" }, listTab);
    const scrolled = await call("browser_scroll", { ref: box.ref, y: 400 }, listTab);
    assertEquals(scrolled.element.scrollTop, 400);
    assertEquals(await list.evaluate(`document.getElementById("list").scrollTop`), 400);
    await call("browser_wait_for_element", { selector: "#item-25" }, listTab);
    // the list re-rendered its rows on scroll: row 2's element is gone
    failed(await raw("browser_scroll", { ref: row.ref }, listTab), {
      status: 422,
      code: "REF_STALE",
    });
    const shown = await call("browser_scroll", { ref: box.ref }, listTab);
    assertEquals(shown.element, undefined, "without x/y it brings the element into view");
    await list.close();
  });
});
