/**
 * The `debugger` setting and the side panel's Debugger section, end to end: real hub, real
 * Chromium with the installed extension, the test web app, the panel page driven like a person.
 *
 * - The panel lists the tabs the debugger is attached to, by title.
 * - Its switch turns the setting off: config.json says `off`, every tab is detached, tools with a
 *   DOM path answer `input: "synthetic"` (the page sees `isTrusted` false) and the others
 *   (click_at, move_mouse, drag, handle_dialog, a network body) fail with DEBUGGER_OFF, which says
 *   how to turn it back on. The synthetic click keeps a right, middle, double or modified click's
 *   button, count and keys in the DOM events it sends.
 * - `hub config set debugger auto` (the real CLI) turns it back on in the running extension.
 * - Another debugger client attached first: measured in Chromium 156, neither a CDP session
 *   (Playwright's, like any automation client) nor another extension's chrome.debugger nor DevTools
 *   makes chrome.debugger.attach fail: Chromium lets several clients work on one tab. So hub
 *   attaches next to it and its input is trusted, and the other client keeps working. The one
 *   refusal Chromium has ("Another debugger is already attached") is a second attach by hub's own
 *   extension: an attachment the sessions do not know of (as after a worker restart) is detached
 *   and the call attaches again.
 */
import type { Locator, Page } from "playwright-core";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually, readConfig } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { openPanel } from "../helpers/panel_page.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Starts recording, in the page, whether each click it gets is trusted. */
async function recordClicks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      __clicks?: boolean[];
      document: {
        addEventListener(type: string, f: (e: { isTrusted: boolean }) => void, c: boolean): void;
      };
    };
    if (w.__clicks) return;
    w.__clicks = [];
    w.document.addEventListener("click", (e) => w.__clicks!.push(e.isTrusted), true);
  });
}

/** Whether each click the page got since `recordClicks` was trusted, in order. */
function clicks(page: Page): Promise<boolean[]> {
  return page.evaluate(() => (globalThis as unknown as { __clicks: boolean[] }).__clicks);
}

const MOUSE_EVENTS = [
  "pointerdown",
  "mousedown",
  "pointerup",
  "mouseup",
  "click",
  "dblclick",
  "contextmenu",
  "auxclick",
];

/** Starts logging, in the page, the untrusted mouse events (type, button, detail, modifiers). */
async function recordMouse(page: Page): Promise<void> {
  await page.evaluate((types) => {
    const w = globalThis as unknown as {
      __mouse?: string[];
      document: { addEventListener(type: string, f: (e: Json) => void, c: boolean): void };
    };
    if (w.__mouse) return;
    w.__mouse = [];
    const mods = (e: Json) =>
      ["alt", "ctrl", "meta", "shift"].filter((m) => e[m + "Key"]).join("+") || "-";
    for (const type of types) {
      w.document.addEventListener(type, (e) => {
        if (!e.isTrusted) w.__mouse!.push(`${type} ${e.button} ${e.detail} ${mods(e)}`);
        if (type === "contextmenu") e.preventDefault();
      }, true);
    }
  }, MOUSE_EVENTS);
}

/** The untrusted mouse events the page logged since the last call, emptying the log. */
function mouseLog(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __mouse: string[] }).__mouse.splice(0));
}

/** browser_click_element on the form page's Reveal button (it does not navigate). */
function clickReveal(e2e: E2E, tabId: number) {
  return callTool(e2e, "browser_click_element", { tabId, selector: "#reveal" });
}

async function attributeIs(locator: Locator, name: string, value: string) {
  let last: string | null = null;
  await eventually(
    async () => (last = await locator.getAttribute(name)) === value,
    () => `${name} stayed ${last}, expected ${value}`,
  );
}

/**
 * Waits until the tabs the panel lists as attached include `present` and none of `absent` (`[]`
 * and `"all"`: no tab at all). Tabs attached earlier may be listed or not: the debugger detaches
 * from a tab after 30 s without use.
 */
async function panelAttached(panel: Page, present: number[], absent: number[] | "all" = []) {
  let shown: number[] = [];
  await eventually(
    async () => {
      shown = await panel.getByTestId("debugger-tab").evaluateAll((rows) =>
        rows.map((row) => Number(row.getAttribute("data-tab-id")))
      );
      return present.every((id) => shown.includes(id)) &&
        (absent === "all" ? shown.length === 0 : !absent.some((id) => shown.includes(id)));
    },
    () =>
      `the panel lists tabs ${JSON.stringify(shown)} as attached; expected ` +
      `${JSON.stringify(present)} among them and ${JSON.stringify(absent)} not`,
  );
}

async function configSays(e2e: E2E, mode: string) {
  let last: Json;
  await eventually(
    async () => (last = await readConfig(e2e.configDir)).debugger === mode,
    () => `config.json's debugger stayed ${last?.debugger}, expected ${mode}`,
  );
}

e2eTest(
  import.meta.url,
  "the debugger setting: panel switch, hub config set, off and another debugger client",
  {
    config: {
      permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
    },
  },
  async (t, { e2e }) => {
    const panel = await openPanel(e2e);
    const section = panel.getByTestId("debugger");
    const toggle = panel.getByTestId("debugger-switch");
    const form = await e2e.open("/form?debugger=1");
    const formTab = await tabIdOf(e2e, form);
    await recordClicks(form);

    await t.step("the panel lists the tab the debugger attached to, by title", async () => {
      await attributeIs(toggle, "aria-checked", "true");
      assertEquals(await toggle.getAttribute("role"), "switch");
      ok(await callTool(e2e, "browser_get_console_logs", { tabId: formTab }), "console logs");
      await panelAttached(panel, [formTab]);
      const row = panel.getByTestId("debugger-tab").first();
      assertMatch((await row.textContent())!, /Form.*\/form\?debugger=1/);
      assertMatch((await section.getByTestId("debugger-status").textContent())!, /1 tab/);
    });

    await t.step("the switch turns it off: config off, no tab attached, DEBUGGER_OFF", async () => {
      await toggle.click();
      await configSays(e2e, "off");
      await attributeIs(toggle, "aria-checked", "false");
      await panelAttached(panel, [], "all");
      assertMatch((await section.getByTestId("debugger-status").textContent())!, /Not attached/);
      failed(await callTool(e2e, "browser_get_console_logs", { tabId: formTab }), {
        status: 422,
        code: "DEBUGGER_OFF",
        category: "permission",
        message: /hub config set debugger auto.*Debugger switch/,
      });
      await panelAttached(panel, [], "all");
    });

    await t.step("off: a click falls back to DOM events, click_at fails DEBUGGER_OFF", async () => {
      const click = ok(await clickReveal(e2e, formTab), "click while off");
      assertEquals(click.input, "synthetic");
      assertEquals(await clicks(form), [false]);
      failed(await callTool(e2e, "browser_click_at", { tabId: formTab, x: 5, y: 5 }), {
        status: 422,
        code: "DEBUGGER_OFF",
        message: /hub config set debugger auto/,
      });
      await panelAttached(panel, [], "all");
    });

    await t.step("off: the tools with no DOM path fail DEBUGGER_OFF", async () => {
      const [request] = ok(
        await callTool(e2e, "browser_network_requests", { tabId: formTab, limit: 1 }),
        "the tab's requests (no debugger needed)",
      ).requests;
      const refused: Array<[string, Record<string, unknown>]> = [
        ["browser_move_mouse", { x: 5, y: 5 }],
        ["browser_drag", { fromX: 5, fromY: 5, toX: 50, toY: 50 }],
        ["browser_drag", { fromSelector: "#reveal", toSelector: "#name" }],
        ["browser_handle_dialog", { accept: true }],
        ["browser_network_request", { requestId: request.requestId, includeBody: true }],
      ];
      for (const [tool, args] of refused) {
        failed(await callTool(e2e, tool, { tabId: formTab, ...args }), {
          status: 422,
          code: "DEBUGGER_OFF",
          message: /hub config set debugger auto/,
        });
      }
      const headers = ok(
        await callTool(e2e, "browser_network_request", {
          tabId: formTab,
          requestId: request.requestId,
        }),
        "the request without its body needs no debugger",
      );
      assertEquals(headers.request.requestId, request.requestId);
      await panelAttached(panel, [], "all");
    });

    await t.step(
      "off: a right, middle, double or Ctrl click keeps its button, count and keys",
      async () => {
        const form = await e2e.open("/form?debugger=mouse");
        const tabId = await tabIdOf(e2e, form);
        await recordMouse(form);
        const click = (args: Record<string, unknown>) =>
          callTool(e2e, "browser_click_element", { tabId, selector: "#reveal", ...args });
        const right = ok(await click({ button: "right", modifiers: ["Shift"] }), "right");
        assertEquals(right.input, "synthetic");
        assertEquals(await mouseLog(form), [
          "pointerdown 2 0 shift",
          "mousedown 2 1 shift",
          "pointerup 2 0 shift",
          "mouseup 2 1 shift",
          "contextmenu 2 1 shift",
          "auxclick 2 1 shift",
        ]);
        ok(await click({ button: "middle" }), "middle");
        assertEquals(await mouseLog(form), [
          "pointerdown 1 0 -",
          "mousedown 1 1 -",
          "pointerup 1 0 -",
          "mouseup 1 1 -",
          "auxclick 1 1 -",
        ]);
        ok(await click({ clickCount: 2, modifiers: ["Control", "Alt"] }), "double");
        assertEquals(await mouseLog(form), [
          "pointerdown 0 0 alt+ctrl",
          "mousedown 0 1 alt+ctrl",
          "pointerup 0 0 alt+ctrl",
          "mouseup 0 1 alt+ctrl",
          "click 0 1 alt+ctrl",
          "pointerdown 0 0 alt+ctrl",
          "mousedown 0 2 alt+ctrl",
          "pointerup 0 0 alt+ctrl",
          "mouseup 0 2 alt+ctrl",
          "click 0 2 alt+ctrl",
          "dblclick 0 2 alt+ctrl",
        ]);
        // A plain click is the element's click() as before: one click event, detail 0.
        ok(await click({}), "a plain click stays the element's click()");
        assertEquals(await mouseLog(form), ["click 0 0 -"]);
        await form.close();
      },
    );

    await t.step("hub config set debugger auto: the running extension follows", async () => {
      const set = await runHub(
        ["config", "set", "debugger", "auto", "--port", String(e2e.hub.port)],
        { configDir: e2e.configDir },
      );
      assertEquals(set.code, 0, set.stderr);
      assertMatch(set.stdout, /debugger = auto/);
      await configSays(e2e, "auto");
      await attributeIs(toggle, "aria-checked", "true");
      const click = ok(await clickReveal(e2e, formTab), "click while auto");
      assertEquals(click.input, "trusted");
      assertEquals(await clicks(form), [false, true]);
      await panelAttached(panel, [formTab]);
    });

    await t.step("another debugger client attached first: hub attaches beside it", async () => {
      const other = await e2e.open("/form?debugger=other");
      const otherTab = await tabIdOf(e2e, other);
      await recordClicks(other);
      const cdp = await e2e.browser.context.newCDPSession(other);
      try {
        await cdp.send("Runtime.enable");
        const click = ok(await clickReveal(e2e, otherTab), "click beside a CDP client");
        assertEquals(click.input, "trusted");
        assertEquals(await clicks(other), [true]);
        await panelAttached(panel, [otherTab]);
        // The other client still works after hub attached.
        const two = await cdp.send("Runtime.evaluate", { expression: "1 + 1" });
        assertEquals(two.result.value, 2);
      } finally {
        await cdp.detach().catch(() => {});
        await other.close();
      }
      await panelAttached(panel, [], [otherTab]);
    });

    await t.step("an attachment of hub's own extension it did not make is taken over", async () => {
      const page = await e2e.open("/form?debugger=stale");
      const tabId = await tabIdOf(e2e, page);
      const worker = await e2e.browser.serviceWorker();
      // Chromium's one refusal: this extension attaching a second time.
      const attach = (id: number) =>
        worker.evaluate((tab) => {
          const chrome = (globalThis as Json).chrome;
          return chrome.debugger.attach({ tabId: tab }, "1.3")
            .then(() => "ok", (e: Error) => e.message);
        }, id);
      assertEquals(await attach(tabId), "ok");
      assertMatch(await attach(tabId), /Another debugger is already attached/);
      ok(await callTool(e2e, "browser_get_console_logs", { tabId }), "console logs over it");
      await panelAttached(panel, [tabId]);
      await page.close();
      await panelAttached(panel, [], [tabId]);
    });
  },
);
