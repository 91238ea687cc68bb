/**
 * The `frame` parameter end to end: real hub, real Chromium with the extension, the test web app's
 * `/frames` page (frame_pages.ts) on 127.0.0.1. A form in a same-origin iframe is filled and sent,
 * a button in a cross-origin iframe (`localhost`, same port) is clicked, and the reading tools
 * read inside a frame, each through `frame` (a CSS selector of the `<iframe>`); the top document's
 * elements with the same ids stay untouched. A frame selector that matches no iframe, or an iframe
 * hub cannot place, fails with ELEMENT_NOT_FOUND naming it.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "the selector tools work inside a frame with frame", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/frames");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  const cross = e2e.app.origin.replace("127.0.0.1", "localhost");
  const frameText = async (urlPart: string, selector: string) => {
    const frame = page.frames().find((f) => f.url().includes(urlPart));
    assert(frame, `a frame at ${urlPart}`);
    return await frame.locator(selector).textContent();
  };
  await call("browser_wait_for_element", {
    frame: "#pay-frame",
    selector: "#pay",
    timeoutMs: 10_000,
  });

  await t.step("a form in a same-origin iframe: type, select, click", async () => {
    const form = { frame: "#form-frame" };
    const typed = ok(
      await call("browser_type_text", { ...form, selector: "#name", text: "Ada" }),
      "type",
    );
    assertEquals(typed.tag, "input");
    ok(await call("browser_select_option", { ...form, selector: "#size", value: "l" }), "select");
    ok(await call("browser_hover_element", { ...form, selector: "#send" }), "hover");
    const clicked = ok(
      await call("browser_click_element", { ...form, selector: "#send" }),
      "click",
    );
    assertEquals([clicked.clicked, clicked.tag, clicked.navigated], [true, "button", undefined]);
    assertEquals(await frameText("/frame-form", "#out"), "Hello Ada, l");
    const out = ok(
      await call("browser_get_page_text", { ...form, selector: "#out" }),
      "frame text",
    );
    assertEquals(out.text, "Hello Ada, l");
    assertEquals(out.url, `${e2e.app.origin}/frame-form`);
    // the top document's #name and #out, same ids, are untouched; selector alone stays on top
    assertEquals(await page.inputValue("#name"), "top field");
    const top = ok(await call("browser_get_page_text", { selector: "#out" }), "top text");
    assertEquals(top.text, "Top out");
  });

  await t.step("a button in a cross-origin iframe is clicked through frame", async () => {
    const clicked = ok(
      await call("browser_click_element", { frame: "iframe[title=Payment]", selector: "#pay" }),
      "pay",
    );
    assertEquals([clicked.clicked, clicked.text], [true, "Pay"]);
    assertEquals(await frameText("/frame-pay", "#status"), `Paid on ${cross}`);
    const whole = ok(await call("browser_get_page_text", { frame: "#pay-frame" }), "frame text");
    assertEquals(whole.text, `Pay\n\nPaid on ${cross}`);
    assertEquals(whole.url, `${cross}/frame-pay`);
  });

  await t.step("query, wait, html, keys and scroll work inside a frame", async () => {
    const found = ok(
      await call("browser_query_elements", { frame: "#pay-frame", selector: "button, p" }),
      "query",
    );
    assertEquals(
      found.elements.map((e: { tag: string; text: string }) => [e.tag, e.text]),
      [["button", "Pay"], ["p", `Paid on ${cross}`]],
    );
    const topButtons = ok(await call("browser_query_elements", { selector: "button" }), "top");
    assertEquals(topButtons.total, 0, "without frame the query stays in the top document");
    ok(
      await call("browser_wait_for_element", { frame: "#form-frame", selector: "#details" }),
      "wait",
    );
    const html = ok(
      await call("browser_get_page_html", { frame: "#form-frame", selector: "select" }),
      "html",
    );
    assert(html.html.startsWith('<select id="size">'), html.html);
    ok(
      await call("browser_press_key", { frame: "#form-frame", selector: "#name", key: "!" }),
      "key",
    );
    ok(await call("browser_scroll", { frame: "#form-frame", selector: "#out" }), "scroll");
    ok(await call("browser_click_element", { frame: "#form-frame", selector: "#send" }), "again");
    assertEquals(await frameText("/frame-form", "#out"), "Hello Ada!, l");
  });

  await t.step("a frame selector that matches no iframe fails, naming it", async () => {
    failed(await call("browser_click_element", { frame: "#nope", selector: "#pay" }), {
      status: 422,
      code: "ELEMENT_NOT_FOUND",
      message: /No <iframe> matches frame "#nope"/,
    });
    failed(await call("browser_get_page_text", { frame: "#not-a-frame" }), {
      status: 422,
      code: "ELEMENT_NOT_FOUND",
      message: /frame "#not-a-frame" matches a <div>/,
    });
    failed(
      await call("browser_query_elements", { frame: "#shadow-host >>> iframe", selector: "p" }),
      {
        status: 422,
        code: "ELEMENT_NOT_FOUND",
        message: /frame "#shadow-host >>> iframe" matches an <iframe> that holds no frame/,
      },
    );
    failed(await call("browser_click_element", { frame: "#form-frame", selector: "#pay" }), {
      status: 422,
      code: "ELEMENT_NOT_FOUND",
      message: /No element matches "#pay" on http:\/\/127\.0\.0\.1:\d+\/frame-form/,
    });
  });
  await page.close();
});
