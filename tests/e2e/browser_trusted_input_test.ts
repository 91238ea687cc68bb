/**
 * Trusted pointer input in real Chromium (`/pointer/page`, tests/fixtures/web_app/pointer_pages.ts):
 * a button that ignores untrusted clicks counts browser_click_element's clicks (and their button,
 * click count and modifiers); a menu that opens only on CSS `:hover` opens under
 * browser_hover_element and its link is then clicked; browser_click_at lands where it was aimed
 * on a canvas and browser_move_mouse moves over it; browser_drag reorders an HTML5 drag-and-drop
 * list (moved by the drag's own data) and moves a pointer-events slider, between elements, between
 * points and from an element to a point; a button under a cookie banner is reported as covered,
 * naming the banner with a ref that clicks it; a button in a cross-origin iframe below the fold is
 * scrolled to and clicked for real; browser_scroll's wheel turns inside a scroll box reach the
 * page's `wheel` listener.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

const textOf = (page: Page, selector: string) => page.locator(selector).textContent();

e2eTest(import.meta.url, "trusted pointer input: clicks, hover, points, drags, covered", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page = await e2e.open("/pointer/page");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });

  await t.step("a button that ignores untrusted clicks counts real ones", async () => {
    const clicked = ok(await call("browser_click_element", { selector: "#strict" }), "click");
    assertEquals(clicked, {
      tabId,
      clicked: true,
      tag: "button",
      text: "Only real clicks",
      input: "trusted",
    });
    assertEquals(await textOf(page, "#strict-count"), "1");
    ok(await call("browser_click_element", { selector: "#strict", clickCount: 2 }), "double");
    ok(
      await call("browser_click_element", {
        selector: "#strict",
        button: "right",
        modifiers: ["Shift"],
      }),
      "right",
    );
    const log = await page.locator("#clicks li").allTextContents();
    // Chromium sends contextmenu for a right press on some platforms only: leave it out.
    assertEquals(log.filter((line) => !line.startsWith("contextmenu")), [
      "click left 1 -",
      "click left 1 -",
      "click left 2 -",
      "dblclick left 2 -",
      "auxclick right 1 shift",
    ]);
  });

  await t.step("a checkbox drawn by the page is clicked on its label", async () => {
    const drawn = ok(await call("browser_click_element", { selector: "#switch" }), "switch");
    assertEquals(drawn.input, "trusted");
    assertEquals(await page.locator("#switch").isChecked(), true);
    const hidden = ok(await call("browser_click_element", { selector: "#hidden-box" }), "hidden");
    assertEquals(hidden.input, "trusted");
    assertEquals(await page.locator("#hidden-box").isChecked(), true);
  });

  await t.step("a :hover menu opens under the real mouse, then its link is clicked", async () => {
    assertEquals(await page.locator("#menu-link").isVisible(), false);
    const hovered = ok(await call("browser_hover_element", { selector: "#menu" }), "hover");
    assertEquals([hovered.tag, hovered.input], ["div", "trusted"]);
    assertEquals(await page.locator("#menu-link").isVisible(), true);
    ok(await call("browser_click_element", { selector: "#menu-link" }), "click the link");
    assertEquals(await textOf(page, "#menu-picked"), "Settings (trusted)");
  });

  await t.step("browser_click_at lands on the canvas point it was given", async () => {
    const [canvas] = ok(
      await call("browser_query_elements", { selector: "#canvas" }),
      "canvas",
    ).elements;
    const { x, y } = canvas.rect;
    // The border is 1 pixel: canvas pixel (40, 30) is 41 pixels from the box's left edge.
    const at = ok(await call("browser_click_at", { x: x + 41, y: y + 31 }), "click at");
    assertEquals([at.x, at.y, at.input], [x + 41, y + 31, "trusted"]);
    assertEquals(await textOf(page, "#canvas-at"), "41,31");
    const moved = ok(await call("browser_move_mouse", { x: x + 100, y: y + 50 }), "move");
    assertEquals(moved.input, "trusted");
    assert(Number(await textOf(page, "#canvas-moves")) >= 1, "the canvas saw a trusted move");
  });

  await t.step("browser_drag drops an HTML5 draggable item and moves a slider", async () => {
    const dropped = ok(
      await call("browser_drag", { fromSelector: "#item-c", toSelector: "#item-a" }),
      "drag C onto A",
    );
    assertEquals([dropped.kind, dropped.input], ["html5", "trusted"]);
    assertEquals(await textOf(page, "#order"), "C A B");
    const slid = ok(
      await call("browser_drag", { fromSelector: "#thumb", toSelector: "#track" }),
      "slide to the middle",
    );
    assertEquals(slid.kind, "pointer");
    const value = Number(await textOf(page, "#slider-value"));
    assert(value >= 40 && value <= 60, `the thumb follows to the track's middle: ${value}`);
  });

  await t.step("browser_drag between points, and from an element to a point", async () => {
    const rect = async (selector: string) =>
      ok(await call("browser_query_elements", { selector }), selector).elements[0].rect;
    const thumb = await rect("#thumb");
    const track = await rect("#track");
    // The thumb's left edge follows the pointer 10 pixels behind: 45 of 180 pixels is 25.
    const y = track.y + track.height / 2;
    const from = { fromX: thumb.x + thumb.width / 2, fromY: thumb.y + thumb.height / 2 };
    const byPoints = ok(
      await call("browser_drag", { ...from, toX: track.x + 55, toY: y }),
      "drag by points",
    );
    assertEquals([byPoints.kind, byPoints.input], ["pointer", "trusted"]);
    assertEquals(byPoints.to, { x: track.x + 55, y });
    const low = Number(await textOf(page, "#slider-value"));
    assert(low >= 22 && low <= 28, `the thumb went to a quarter of the track: ${low}`);
    const mixed = ok(
      await call("browser_drag", { fromSelector: "#thumb", toX: track.x + 172, toY: y }),
      "drag from an element to a point",
    );
    assertEquals(mixed.kind, "pointer");
    const high = Number(await textOf(page, "#slider-value"));
    assert(high >= 87 && high <= 93, `the thumb went to nine tenths of the track: ${high}`);
  });

  await t.step("a button under a cookie banner is reported, naming the banner", async () => {
    const error = failed(await call("browser_click_element", { selector: "#covered" }), {
      status: 422,
      code: "ELEMENT_COVERED",
    });
    assertMatch(
      error.message,
      /^"#covered" is covered by <div> "We use cookies Accept" \(ref e\d+\) at \([\d.]+, [\d.]+\)\. Close/,
    );
    const covering = (error.details as { covering: { tag: string; ref: string } }).covering;
    assertEquals(covering.tag, "div");
    ok(await call("browser_click_element", { ref: covering.ref }), "the banner's ref clicks");
  });

  await t.step("a button in a cross-origin frame below the fold is clicked for real", async () => {
    const clicked = ok(
      await call("browser_click_element", { frame: "#pay-frame", selector: "#frame-button" }),
      "frame click",
    );
    assertEquals([clicked.text, clicked.input], ["Pay in frame", "trusted"]);
    const frame = page.frames().find((f) => f.url().includes("/pointer/frame"));
    assert(frame, "the pay frame");
    const count = () => frame.locator("#frame-count").textContent();
    await eventually(async () => await count() === "1", async () => `count ${await count()}`);
  });

  await t.step("browser_scroll inside a box turns the real wheel there", async () => {
    const moved = ok(await call("browser_scroll", { selector: "#wheel-box", y: 120 }), "wheel");
    assertEquals([moved.input, moved.element.scrollTop], ["trusted", 120]);
    assert(Number(await textOf(page, "#wheel-count")) >= 1, "the box's wheel listener ran");
    // Under another element the wheel would scroll that one: the page scrolls the box instead.
    const veiled = ok(await call("browser_scroll", { selector: "#veiled-box", y: 50 }), "veiled");
    assertEquals([veiled.input, veiled.element.scrollTop], ["synthetic", 50]);
  });
});
