/**
 * Trusted keyboard input and custom dropdowns in real Chromium (`/keys/page`,
 * tests/fixtures/web_app/keyboard_pages.ts): browser_press_key's chords do what the browser does
 * with them (Shift+Arrow, Ctrl+Shift+Arrow, Home/End and Ctrl+A select text, read back from the
 * page; Ctrl+B bolds in a contenteditable element), a listener that ignores untrusted keys sees
 * them, copy, cut and paste chords are refused (the page sees no clipboard event),
 * browser_type_text inserts trusted text, and a combobox that opens only on a trusted pointerdown
 * (hub's click) is driven by arrow keys and Enter, and by browser_select_option. With the debugger
 * off (`hub config set debugger off`), keys and typing fall back to synthetic events.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

/** The field's selection, [start, end]. */
const selection = (page: Page) =>
  page.evaluate(`(() => {
    const field = document.getElementById("field");
    return [field.selectionStart, field.selectionEnd];
  })()`) as Promise<[number, number]>;

e2eTest(import.meta.url, "trusted keys, typing and custom dropdowns", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  // Playwright dismisses a dialog nobody listens for: listening leaves it to hub.
  e2e.browser.context.on("dialog", () => {});
  const page = await e2e.open("/keys/page");
  const tabId = await tabIdOf(e2e, page);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  const press = async (key: string, modifiers: string[] = [], more: object = {}) =>
    ok(await call("browser_press_key", { key, modifiers, ...more }), `${modifiers} ${key}`);

  await t.step("selection chords select text as the browser does", async () => {
    const end = await press("End", [], { selector: "#field" });
    assertEquals([end.input, end.key, end.target.id], ["trusted", "End", "field"]);
    assertEquals(await selection(page), [17, 17]);
    await press("ArrowLeft", ["Shift"]);
    assertEquals(await selection(page), [16, 17]);
    await press("ArrowLeft", ["Control", "Shift"]);
    assertEquals(await selection(page), [12, 17], "Ctrl+Shift+Left selects to the word start");
    await press("Home");
    assertEquals(await selection(page), [0, 0]);
    await press("End", ["Shift"]);
    assertEquals(await selection(page), [0, 17]);
    await press("Home");
    const all = await press("a", ["Control"]);
    assertEquals([all.effect, all.input], ["none", "trusted"]);
    assertEquals(await selection(page), [0, 17]);
    assertEquals(await page.locator("#field").inputValue(), "hello brave world");
  });

  await t.step("a typed key goes in as a trusted event", async () => {
    await press("End", [], { selector: "#field" });
    await page.evaluate(`document.getElementById("log").textContent = ""`);
    const bang = await press("!");
    assertEquals(bang.effect, "inserted");
    assertEquals(await page.locator("#field").inputValue(), "hello brave world!");
    assertEquals(await page.locator("#log li").allTextContents(), [
      "keydown ! true",
      "input true",
    ]);
  });

  await t.step(
    "copy, cut and paste chords are refused: the page sees no clipboard event",
    async () => {
      await page.evaluate(`document.getElementById("log").textContent = ""`);
      const chords = [["v", ["Control"]], ["c", ["Control"]], ["x", ["Meta"]], ["Insert", [
        "Shift",
      ]]];
      for (const [key, modifiers] of chords) {
        failed(await call("browser_press_key", { key, modifiers, selector: "#field" }), {
          status: 422,
          code: "INVALID_KEY",
          message:
            /copy, cut or paste chord, and hub never presses those: a page could read the pe/,
        });
      }
      assertEquals(await page.locator("#log li").allTextContents(), [], "no key, no paste event");
      assertEquals(await page.locator("#field").inputValue(), "hello brave world!");
    },
  );

  await t.step("Ctrl+B bolds the selection in a contenteditable editor", async () => {
    await press("a", ["Control"], { selector: "#editor" });
    const bold = await press("b", ["Control"]);
    assertEquals(bold.input, "trusted");
    assertMatch(await page.locator("#editor").innerHTML(), /^<b>Make this bold<\/b>$/);
  });

  await t.step("a listener that ignores untrusted keys sees the press", async () => {
    const k = await press("k", [], { selector: "#shortcut" });
    assertEquals([k.target.id, k.input], ["shortcut", "trusted"]);
    assertEquals(await page.locator("#shortcut-count").textContent(), "1");
  });

  await t.step("browser_type_text inserts trusted text, replacing or appending", async () => {
    await page.evaluate(`document.getElementById("log").textContent = ""`);
    const typed = ok(await call("browser_type_text", { selector: "#field", text: "Ada" }), "type");
    assertEquals(typed, { tabId, tag: "input", value: "Ada", input: "trusted" });
    assertEquals(await page.locator("#log li").allTextContents(), ["input true"]);
    const more = ok(
      await call("browser_type_text", { selector: "#field", text: " L.", clear: false }),
      "append",
    );
    assertEquals(more.value, "Ada L.");
    const cleared = ok(await call("browser_type_text", { selector: "#field", text: "" }), "clear");
    assertEquals([cleared.value, cleared.input], ["", "trusted"]);
    assertEquals(await page.locator("#field").inputValue(), "");
    const rich = ok(await call("browser_type_text", { selector: "#editor", text: "New" }), "ce");
    assertEquals([rich.value, rich.input], ["New", "trusted"]);
  });

  await t.step(
    "submit outside a form is a real Enter: the browser's change comes first",
    async () => {
      const typed = ok(
        await call("browser_type_text", { selector: "#search", text: "kiwi", submit: true }),
        "search",
      );
      assertEquals(typed, {
        tabId,
        tag: "input",
        value: "kiwi",
        submitted: "enter",
        input: "trusted",
      });
      assertEquals(await page.locator("#searched").textContent(), "kiwi 1");
      await press("Tab", [], { selector: "#field" });
      assertEquals(await page.evaluate("changes"), 1, "leaving the field fires no second change");
    },
  );

  await t.step("typing and keys reach a field in a cross-origin frame", async () => {
    const frame = { frame: "#key-frame", selector: "#inner" };
    const typed = ok(await call("browser_type_text", { ...frame, text: "deep" }), "type");
    assertEquals([typed.value, typed.input], ["deep", "trusted"]);
    const key = ok(await call("browser_press_key", { ...frame, key: "!" }), "key");
    assertEquals([key.effect, key.input], ["inserted", "trusted"]);
    const inner = page.frames().find((f) => f.url().endsWith("/keys/frame"))!;
    assertEquals(await inner.locator("#inner").inputValue(), "deep!");
    assertEquals(await inner.locator("#inner-log").textContent(), "trusted input. ".repeat(2));
  });

  await t.step("a combobox that opens on pointerdown follows arrow keys and Enter", async () => {
    // hub's trusted click opens it (the page ignores an untrusted pointerdown).
    const open = ok(await call("browser_click_element", { selector: "#combo" }), "open");
    assertEquals(open.input, "trusted");
    assertEquals(await page.locator("#combo").getAttribute("aria-expanded"), "true");
    await press("ArrowDown", [], { selector: "#combo" });
    await press("ArrowDown");
    const enter = await press("Enter");
    assertEquals([enter.effect, enter.input], ["prevented", "trusted"]);
    assertEquals(await page.locator("#chosen").textContent(), "banana");
  });

  await t.step("browser_select_option opens a custom dropdown and clicks the option", async () => {
    const cherry = ok(
      await call("browser_select_option", { selector: "#combo", label: "cherry" }),
      "label",
    );
    assertEquals(cherry, {
      tabId,
      selected: [{ value: "cherry", label: "Cherry", index: 2 }],
      input: "trusted",
    });
    assertEquals(await page.locator("#chosen").textContent(), "cherry");
    ok(await call("browser_select_option", { selector: "#combo", value: "apple" }), "value");
    assertEquals(await page.locator("#chosen").textContent(), "apple");
    ok(await call("browser_select_option", { selector: "#combo", index: 1 }), "index");
    assertEquals(await page.locator("#chosen").textContent(), "banana");
    failed(await call("browser_select_option", { selector: "#combo", label: "Durian" }), {
      status: 422,
      code: "OPTION_NOT_FOUND",
      message: /no option with label "Durian"\. The options it shows: 0: "Apple"/,
    });
    assert(await page.locator("#combo-list").isVisible(), "the list stays open to look at");
  });

  await t.step(
    "an email field appends; a date field and a plain element get DOM events",
    async () => {
      const mail = { selector: "#mail", text: "example.com", clear: false };
      const appended = ok(await call("browser_type_text", mail), "email");
      assertEquals([appended.value, appended.input], ["ada@example.com", "trusted"]);
      const date = ok(
        await call("browser_type_text", { selector: "#when", text: "2026-11-29" }),
        "date",
      );
      assertEquals([date.value, date.input], ["2026-11-29", "synthetic"]);
      assertEquals(await page.locator("#when").inputValue(), "2026-11-29");
      const plain = await press("x", [], { selector: "#plain" });
      assertEquals([plain.target.id, plain.input, plain.effect], ["plain", "synthetic", "none"]);
    },
  );

  await t.step("a key that opens a dialog answers with it at once", async () => {
    ok(await call("browser_type_text", { selector: "#ask", text: "draft" }), "type");
    const enter = await press("Enter", [], { selector: "#ask" });
    assertEquals(enter.dialog, { type: "alert", message: "Saved draft" });
    assertEquals([enter.key, enter.input, enter.target.id], ["Enter", "trusted", "ask"]);
    const handled = ok(await call("browser_handle_dialog", { accept: true }), "handle");
    assertEquals([handled.handled.type, handled.dialog], ["alert", null]);
  });

  await t.step(
    "debugger off: keys and typing are synthetic, a custom dropdown refused",
    async () => {
      const off = await runHub(
        ["config", "set", "debugger", "off", "--port", String(e2e.hub.port)],
        { configDir: e2e.configDir },
      );
      assertEquals(off.code, 0, off.stderr);
      await eventually(
        async () => (await press("Shift")).input === "synthetic",
        () => "the extension did not turn its debugger off",
      );
      const k = await press("k", [], { selector: "#shortcut" });
      assertEquals([k.input, k.effect], ["synthetic", "none"]);
      failed(await call("browser_press_key", { key: "v", modifiers: ["Control"] }), {
        status: 422,
        code: "INVALID_KEY",
        message: /copy, cut or paste chord/,
      });
      assertEquals(await page.locator("#shortcut-count").textContent(), "1", "untrusted: ignored");
      const typed = ok(
        await call("browser_type_text", { selector: "#field", text: "off" }),
        "type",
      );
      assertEquals([typed.value, typed.input], ["off", "synthetic"]);
      failed(await call("browser_select_option", { selector: "#combo", label: "Apple" }), {
        status: 422,
        code: "NOT_A_SELECT",
        message: /is a <div>, not a <select>\. For a custom dropdown, click it open/,
      });
    },
  );
});
