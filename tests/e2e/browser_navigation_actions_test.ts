/**
 * Actions that navigate, end to end in real Chromium: a click on a link, Enter in a form and
 * browser_type_text with submit wait for the new page, so an immediate browser_get_page_text reads
 * it, and so does a click whose handler sets `location.href`; a target=_blank link and window.open answer newTab; an action that navigates nothing answers
 * as before. The target page (`/nav-target`) answers late, so a call that did not wait would read
 * the start page.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "actions that navigate wait for the new page", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const start = await e2e.open("/nav");
  const tabId = await tabIdOf(e2e, start);
  const url = (path: string) => new URL(path, e2e.app.url).href;
  const call = async (tool: string, args: Record<string, unknown>) =>
    ok(await callTool(e2e, tool, { tabId, ...args }), tool);
  const backToStart = () => call("browser_navigate_tab", { url: url("/nav") });
  const text = async () => (await call("browser_get_page_text", {})).text as string;

  await t.step("a click on a link answers with the new page, and a read sees it", async () => {
    const clicked = await call("browser_click_element", { selector: "#go" });
    assertEquals(clicked.clicked, true);
    assertEquals([clicked.navigated, clicked.loaded], [true, true]);
    assertEquals([clicked.url, clicked.title], [
      url("/nav-target?name=link&ms=400"),
      "Target link",
    ]);
    assertEquals(await text(), "Arrived by link");
  });

  await t.step("Enter in a form's field submits it and waits for the result page", async () => {
    await backToStart();
    await call("browser_type_text", { selector: "#q", text: "enter" });
    const pressed = await call("browser_press_key", { selector: "#q", key: "Enter" });
    assertEquals([pressed.effect, pressed.navigated, pressed.loaded], ["submitted", true, true]);
    assertEquals(pressed.title, "Target enter");
    assertEquals(await text(), "Arrived by enter");
  });

  await t.step("browser_type_text with submit waits too", async () => {
    await backToStart();
    const typed = await call("browser_type_text", { selector: "#q", text: "typed", submit: true });
    assertEquals([typed.submitted, typed.navigated, typed.title], ["form", true, "Target typed"]);
    assertEquals(await text(), "Arrived by typed");
  });

  await t.step("a click whose handler sets location.href waits for the new page", async () => {
    await backToStart();
    const clicked = await call("browser_click_element", { selector: "#script" });
    assertEquals([clicked.navigated, clicked.loaded], [true, true]);
    assertEquals(clicked.title, "Target script");
    assertEquals(await text(), "Arrived by script");
  });

  await t.step("waitForLoad: false answers without waiting for the load", async () => {
    await backToStart();
    const clicked = await call("browser_click_element", { selector: "#go", waitForLoad: false });
    assertEquals(clicked.clicked, true);
    // A link's navigation is usually reported before the click answers; nothing is waited for.
    if ("navigated" in clicked) {
      assertEquals([clicked.navigated, clicked.loaded], [true, false]);
      assertEquals(clicked.url, url("/nav-target?name=link&ms=400"));
    }
  });

  await t.step("an action that navigates nothing answers as before", async () => {
    await backToStart();
    const clicked = await call("browser_click_element", { selector: "#stay" });
    assertEquals(clicked, {
      tabId,
      clicked: true,
      tag: "button",
      text: "Clicked",
      input: "trusted",
    });
    const key = await call("browser_press_key", { selector: "#q", key: "a" });
    assertEquals([key.effect, "navigated" in key], ["inserted", false]);
    const fragment = await call("browser_click_element", { selector: "#fragment" });
    assertEquals([fragment.navigated, fragment.url], [true, url("/nav#below")]);
  });

  await t.step("a target=_blank link and window.open answer newTab", async () => {
    await backToStart();
    const blank = await call("browser_click_element", { selector: "#blank" });
    assertEquals("navigated" in blank, false);
    assertEquals(blank.newTab.url, url("/nav-target?name=blank"));
    assert(blank.newTab.tabId !== tabId);
    const popup = await call("browser_click_element", { selector: "#popup" });
    assertEquals(popup.newTab.url, url("/nav-target?name=popup"));
    assert(![tabId, blank.newTab.tabId].includes(popup.newTab.tabId));
  });
});
