/**
 * The side panel end to end: real hub, real Chromium with the installed extension, the panel page
 * (`chrome-extension://<id>/panel.html`) opened in a tab and driven like a person would. Every
 * change made in the panel is checked where it lands (config.json, the next call's result, the
 * audit log); confirmations are answered by clicking, for calls made with the MCP SDK client.
 * Screenshots of the main states go to tests/artifacts/side_panel/.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest, PLUGIN } from "../helpers/e2e_fixture.ts";
import { api, eventually, readConfig } from "../helpers/hub_api.ts";
import { ROOT } from "../helpers/hub_process.ts";
import type { Client } from "../helpers/mcp_client.ts";
import { openPanel } from "../helpers/panel_page.ts";
import { unmarked } from "../helpers/page_content.ts";

const ARTIFACTS = join(ROOT, "tests", "artifacts", "side_panel");
const ECHO = `${PLUGIN}__echo`;

// deno-lint-ignore no-explicit-any
type Json = any;

/** Saves what the panel shows (`fullPage`: all of it, not just the first 900 px). */
async function shot(panel: Page, name: string, fullPage = false) {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  if (!fullPage) await panel.evaluate("scrollTo(0, 0)");
  await panel.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

/** Polls config.json until `check` holds. */
async function configWhere(e2e: E2E, check: (config: Json) => boolean, what: string) {
  let last: Json;
  await eventually(
    async () => check(last = await readConfig(e2e.configDir)),
    () => `config.json never had ${what}: ${JSON.stringify(last?.permissions)}`,
  );
  return last;
}

/** The newest audit entry. */
async function lastAudit(e2e: E2E): Promise<Json> {
  const reply = await api(e2e.hub, "GET", "/audit?limit=1");
  assertEquals(reply.status, 200, JSON.stringify(reply.body));
  return reply.body[0];
}

function errorCode(reply: { body: Json }): string | undefined {
  return reply.body?.structuredContent?.error?.code;
}

/** The data-testid of the element that has the keyboard focus in `page`. */
function focusedTestId(page: Page): Promise<string | null | undefined> {
  return page.evaluate(() => {
    // The DOM's document (these tests type-check against Deno's lib, not the DOM's).
    const doc = (globalThis as unknown as {
      document: { activeElement: { getAttribute(name: string): string | null } | null };
    }).document;
    return doc.activeElement?.getAttribute("data-testid");
  });
}

/** Waits for the locator's attribute to equal `value`. */
async function attributeIs(locator: Locator, name: string, value: string) {
  let last: string | null = null;
  await eventually(
    async () => (last = await locator.getAttribute(name)) === value,
    () => `${name} stayed ${last}, expected ${value}`,
  );
}

async function textMatches(locator: Locator, pattern: RegExp) {
  let last: string | null = null;
  await eventually(
    async () => pattern.test(last = (await locator.textContent()) ?? ""),
    () => `text "${last}" never matched ${pattern}`,
  );
}

/**
 * Starts an MCP call of echo and waits until the panel shows `count` confirmations; `result` is
 * the call's result (or the Error it failed with).
 */
async function askedEcho(
  mcp: Client,
  panel: Page,
  text: string,
  count = 1,
  signal?: AbortSignal,
): Promise<{ result: Promise<Json> }> {
  const result = mcp.callTool({ name: ECHO, arguments: { text } }, undefined, { signal })
    .catch((error: Error) => error);
  const cards = panel.getByTestId("confirmation");
  await eventually(
    async () => (await cards.count()) === count,
    async () => `the panel shows ${await cards.count()} confirmations, expected ${count}`,
  );
  return { result };
}

e2eTest(
  import.meta.url,
  "side panel: live state, permissions, confirmations, connection problems",
  {
    config: {
      permissions: { [PLUGIN]: { permission: "auto" }, browser: { permission: "off" } },
    },
  },
  async (t, { e2e, mcp }) => {
    const panel = await openPanel(e2e);
    const group = panel.getByTestId(`plugin-${PLUGIN}`);
    const tabState = group.getByTestId("tab-state");
    const pluginSelect = group.getByTestId("plugin-permission");
    const echoSelect = group.getByTestId("tool-permission-echo");
    let app: Page | undefined;

    await t.step("shows the connection and the plugin's tab state live", async () => {
      await textMatches(
        panel.getByTestId("connection-status"),
        new RegExp(`Connected to 127\\.0\\.0\\.1:${e2e.hub.port}`),
      );
      assert(await panel.getByTestId("problem").isHidden(), "no problem while connected");
      await textMatches(group.locator("h3"), /^Test App$/);
      await attributeIs(tabState, "data-state", "closed");
      assertMatch((await tabState.textContent())!, /Closed/);

      app = await e2e.open("/");
      await attributeIs(tabState, "data-state", "ready");
      await textMatches(group.getByTestId("tabs"), new RegExp(`Test app.*${e2e.app.url}`));
      await app.close();
      await attributeIs(tabState, "data-state", "closed");
      assertEquals(await group.getByTestId("tabs").count(), 0);

      app = await e2e.open("/");
      await attributeIs(tabState, "data-state", "ready");
      await panel.bringToFront();
      await group.locator("details.tools > summary").click();
      assertEquals(await pluginSelect.inputValue(), "auto");
      assertEquals(await echoSelect.inputValue(), "auto");
      await panel.getByTestId("plugin-browser").locator("details.tools > summary").click();
      await shot(panel, "connected", true);
    });

    await t.step("the plugin's permission: off refuses calls, auto runs them", async () => {
      await pluginSelect.selectOption("off");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].permission === "off", "plugin off");
      assertEquals(errorCode(await callTool(e2e, ECHO, { text: "x" })), "PERMISSION_OFF");
      await eventually(
        async () => (await echoSelect.inputValue()) === "off",
        () => "the tool did not follow its plugin to off",
      );

      await pluginSelect.selectOption("auto");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].permission === "auto", "plugin auto");
      // Turned on again, the plugin's tab is probed anew; on a busy machine that can lag the config.
      await e2e.waitForTabState("ready");
      const reply = await callTool(e2e, ECHO, { text: "runs" });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
      assertEquals(unmarked(reply.body).structuredContent, { text: "runs" });
    });

    await t.step("a tool's permission: off refuses that tool, auto runs it", async () => {
      await echoSelect.selectOption("off");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].tools?.echo === "off", "echo off");
      assertEquals(errorCode(await callTool(e2e, ECHO, { text: "x" })), "PERMISSION_OFF");
      assertEquals((await lastAudit(e2e)).error.code, "PERMISSION_OFF");
      const other = await callTool(e2e, `${PLUGIN}__get_user`, {});
      assertEquals(other.status, 200, "other tools keep the plugin's permission");

      await echoSelect.selectOption("auto");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].tools?.echo === "auto", "echo auto");
      assertEquals((await callTool(e2e, ECHO, { text: "y" })).status, 200);
    });

    await t.step("browser tools are grouped the same way", async () => {
      const browser = panel.getByTestId("plugin-browser");
      const listTabs = browser.getByTestId("tool-permission-browser_list_tabs");
      assertEquals(await listTabs.inputValue(), "off");
      assertEquals(errorCode(await callTool(e2e, "browser_list_tabs")), "PERMISSION_OFF");
      await listTabs.selectOption("auto");
      await configWhere(
        e2e,
        (c) => c.permissions.browser?.tools?.browser_list_tabs === "auto",
        "browser_list_tabs auto",
      );
      assertEquals((await callTool(e2e, "browser_list_tabs")).status, 200);
      await browser.getByTestId("plugin-permission").selectOption("ask");
      await configWhere(e2e, (c) => c.permissions.browser?.permission === "ask", "browser ask");
    });

    await t.step("the skip switch: ask tools run without asking while it is on", async () => {
      await echoSelect.selectOption("ask");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].tools?.echo === "ask", "echo ask");
      const skipSwitch = panel.getByTestId("skip-switch");
      assertEquals(await skipSwitch.getAttribute("role"), "switch");
      assertEquals(await skipSwitch.getAttribute("aria-checked"), "false");
      await skipSwitch.click();
      await configWhere(e2e, (c) => c.skipPermissions === true, "skipPermissions true");
      await attributeIs(skipSwitch, "aria-checked", "true");
      await textMatches(panel.getByTestId("skip"), /run without asking you/);
      const reply = await callTool(e2e, ECHO, { text: "skipped" });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
      assertEquals(await panel.getByTestId("confirmation").count(), 0);
      await shot(panel, "skip_on");

      await skipSwitch.click();
      await configWhere(e2e, (c) => c.skipPermissions === false, "skipPermissions false");
      await attributeIs(skipSwitch, "aria-checked", "false");
    });

    await t.step("ask + Allow: the call runs and is audited as a success", async () => {
      // Focus stays where the person is while a request comes in.
      await panel.getByTestId("skip-switch").focus();
      const call = (await askedEcho(mcp!, panel, "allow me")).result;
      assertEquals(await focusedTestId(panel), "skip-switch");
      const card = panel.getByTestId("confirmation").first();
      await textMatches(card.locator("h3"), /Echo.*test-app__echo/);
      await textMatches(card, /Plugin: Test App \(test-app\)/);
      await textMatches(card.getByTestId("parameters"), /text\s*allow me/);
      await textMatches(card.getByTestId("countdown"), /^[45]:\d\d left$/);
      await textMatches(panel.locator("#announce-polite"), /Confirmation needed: Echo/);
      await shot(panel, "confirmation");
      await panel.emulateMedia({ colorScheme: "dark" });
      await shot(panel, "confirmation_dark");
      await panel.emulateMedia({ colorScheme: "light" });

      await card.getByTestId("allow").click();
      const result: Json = await call;
      assert(!(result instanceof Error) && !result.isError, JSON.stringify(result));
      assertEquals(unmarked(result).structuredContent, { text: "allow me" });
      await eventually(
        async () => (await panel.getByTestId("confirmation").count()) === 0,
        () => "the answered request is still shown",
      );
      const entry = await lastAudit(e2e);
      assertEquals([entry.tool, entry.success], [ECHO, true]);
      const activity = panel.getByTestId("activity-entry").first();
      await attributeIs(activity, "data-state", "succeeded");
    });

    await t.step("ask + Deny: PERMISSION_DENIED, audited with that code", async () => {
      const call = (await askedEcho(mcp!, panel, "deny me")).result;
      // By keyboard: Tab from the request's heading to Deny, then Enter.
      await panel.getByTestId("confirmation").first().locator("h3").focus();
      const order: (string | null | undefined)[] = [];
      while (order.length < 5 && order.at(-1) !== "deny") {
        await panel.keyboard.press("Tab");
        order.push(await focusedTestId(panel));
      }
      assertEquals(order, ["allow", "deny"]);
      await panel.keyboard.press("Enter");
      const result: Json = await call;
      assertEquals(result.isError, true, JSON.stringify(result));
      assertEquals(result.structuredContent.error.code, "PERMISSION_DENIED");
      const entry = await lastAudit(e2e);
      assertEquals([entry.tool, entry.success, entry.error?.code], [
        ECHO,
        false,
        "PERMISSION_DENIED",
      ]);
      const activity = panel.getByTestId("activity-entry").first();
      await attributeIs(activity, "data-state", "failed");
      await textMatches(activity, /PERMISSION_DENIED/);
      assertEquals(await panel.getByTestId("confirmation").count(), 0);
    });

    await t.step(
      "ask + Always allow: runs, stores auto, the next call is not asked",
      async () => {
        const call = (await askedEcho(mcp!, panel, "always")).result;
        await panel.getByTestId("confirmation").first().getByTestId("always-allow").click();
        const result: Json = await call;
        assertEquals(
          unmarked(result).structuredContent,
          { text: "always" },
          JSON.stringify(result),
        );
        await configWhere(e2e, (c) => c.permissions[PLUGIN].tools?.echo === "auto", "echo auto");
        await eventually(
          async () => (await echoSelect.inputValue()) === "auto",
          () => "the tool's selector did not move to auto",
        );
        const next: Json = await mcp.callTool({ name: ECHO, arguments: { text: "again" } });
        assertEquals(unmarked(next).structuredContent, { text: "again" });
        assertEquals(await panel.getByTestId("confirmation").count(), 0);
        assertEquals((await lastAudit(e2e)).success, true);
      },
    );

    await t.step("two requests queue in order; each answer goes to its own call", async () => {
      await echoSelect.selectOption("ask");
      await configWhere(e2e, (c) => c.permissions[PLUGIN].tools?.echo === "ask", "echo ask");
      const first = (await askedEcho(mcp!, panel, "first")).result;
      const second = (await askedEcho(mcp!, panel, "second", 2)).result;
      const cards = panel.getByTestId("confirmation");
      await textMatches(cards.nth(0).getByTestId("parameters"), /first/);
      await textMatches(cards.nth(1).getByTestId("parameters"), /second/);
      await textMatches(panel.locator("#confirmations-heading"), /\(2\)/);
      await shot(panel, "two_confirmations");

      await cards.nth(1).getByTestId("deny").click();
      const denied: Json = await second;
      assertEquals(denied.structuredContent?.error?.code, "PERMISSION_DENIED");
      await eventually(async () => (await cards.count()) === 1, () => "the denied one stayed");
      await textMatches(cards.nth(0).getByTestId("parameters"), /first/);
      await cards.nth(0).getByTestId("allow").click();
      const allowed: Json = await first;
      assertEquals(unmarked(allowed).structuredContent, { text: "first" });
      await eventually(async () => (await cards.count()) === 0, () => "a card stayed");
    });

    await t.step("a request the agent cancels disappears from the panel", async () => {
      const controller = new AbortController();
      const call = (await askedEcho(mcp!, panel, "cancel me", 1, controller.signal)).result;
      controller.abort("the agent gave up");
      assert((await call) instanceof Error, "the client saw its cancel");
      const cards = panel.getByTestId("confirmation");
      await eventually(async () => (await cards.count()) === 0, () => "the card stayed");
      assert(await panel.locator("section.confirm-section").isHidden());
      assertEquals((await lastAudit(e2e)).error?.code, "CANCELLED");
    });

    await t.step(
      "a stopped hub: the panel says why and what to do; reconnects after",
      async () => {
        await e2e.hub.stop();
        await textMatches(panel.getByTestId("connection-status"), /Not connected/);
        const problem = panel.getByTestId("problem");
        await attributeIs(problem, "data-kind", "not_running");
        await textMatches(panel.getByTestId("problem-message"), /not running/);
        await textMatches(panel.getByTestId("problem-fix"), /hub start/);
        const retry = panel.getByTestId("reconnect");
        assertEquals(await retry.textContent(), "Retry now");
        // Retrying while the hub is still down: no error, the same diagnosis.
        await retry.click();
        await attributeIs(problem, "data-kind", "not_running");
        assert(await problem.locator(".error").isHidden(), "the retry itself did not fail");
        assert(await panel.getByTestId(`plugin-${PLUGIN}`).isHidden(), "no stale permissions");
        await shot(panel, "disconnected");
        await panel.emulateMedia({ colorScheme: "dark" });
        await shot(panel, "disconnected_dark");
        await panel.emulateMedia({ colorScheme: "light" });

        await e2e.restartHub();
        await textMatches(
          panel.getByTestId("connection-status"),
          new RegExp(`Connected to 127\\.0\\.0\\.1:${e2e.hub.port}`),
        );
        await textMatches(panel.getByTestId(`plugin-${PLUGIN}`).locator("h3"), /Test App/);
        await panel.emulateMedia({ colorScheme: "dark" });
        await shot(panel, "connected_dark");
      },
    );
  },
);
