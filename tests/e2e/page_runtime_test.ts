/**
 * The page side of plugin calls in a real Chromium with the installed extension, the real hub, the
 * test web app and the test plugin: progress reaching an MCP client, plugin logs reaching MCP
 * clients as `notifications/message` (and server.log / `hub logs`), a strict-CSP page, a tab closed
 * mid-call, the adapter injected once per build and document (again after a navigation and after a
 * rebuild), new tabs, and SPA-style same-document navigation. One browser and hub for the file.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { installCollector } from "../helpers/browser.ts";
import { callTool, type E2E, e2eTest, PLUGIN, readyTabId } from "../helpers/e2e_fixture.ts";
import { api, eventually } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { buildPluginDir } from "../helpers/test_plugin.ts";
import { STRICT_CSP, USER_NAME } from "../fixtures/web_app/server.ts";
import { unmarked } from "../helpers/page_content.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `path` in a new tab with the page-event collector installed before the page loads. */
async function openCollected(e2e: E2E, path: string): Promise<Page> {
  const page = await e2e.browser.context.newPage();
  await installCollector(page);
  await page.goto(new URL(path, e2e.app.url).href);
  return page;
}

/** How many adapter doors of the test plugin the current document holds (one per injection). */
function registrations(page: Page): Promise<number> {
  return page.evaluate(
    (plugin) =>
      Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith(`__hubAdapter:${plugin}:`))
        .length,
    PLUGIN,
  );
}

/** Remembers the newest door under `mark`, to see later whether another build came. */
function markAdapter(page: Page, mark: string): Promise<void> {
  return page.evaluate(({ plugin, mark }) => {
    const doors = Object.getOwnPropertyNames(globalThis)
      .filter((n) => n.startsWith(`__hubAdapter:${plugin}:`));
    (globalThis as Json).__testMark = { mark, door: doors.at(-1), count: doors.length };
  }, { plugin: PLUGIN, mark });
}

/** The mark, while the marked door is still the newest (null in a new document). */
function adapterMark(page: Page): Promise<string | null> {
  return page.evaluate((plugin) => {
    const marked = (globalThis as Json).__testMark;
    const doors = Object.getOwnPropertyNames(globalThis)
      .filter((n) => n.startsWith(`__hubAdapter:${plugin}:`));
    return marked && doors.at(-1) === marked.door ? marked.mark : null;
  }, PLUGIN);
}

/** Starts `slow` over MCP and resolves `started` at its first progress report. */
// deno-lint-ignore no-explicit-any
function slowCall(mcp: any, tabId: number, count: number, delayMs: number) {
  let started = false;
  const result = mcp.callTool(
    { name: `${PLUGIN}__slow`, arguments: { count, delayMs, tabId } },
    undefined,
    { onprogress: () => void (started = true) },
  ) as Promise<Json>;
  return { result, started: () => Promise.resolve(started) };
}

/** A successful REST call's structured value (fails with the reply otherwise). */
async function okValue(e2e: E2E, tool: string, args: Record<string, unknown>): Promise<Json> {
  const reply = await callTool(e2e, tool, args);
  assertEquals(reply.status, 200, `${tool}: ${JSON.stringify(reply.body)}`);
  assert.notEqual(reply.body.isError, true, JSON.stringify(reply.body));
  return unmarked(reply.body).structuredContent;
}

/** Rebuilds the plugin copy in place (`hub-plugin build --dir`), without telling the hub. */
async function rebuildPlugin(e2e: E2E): Promise<void> {
  await buildPluginDir(e2e.pluginDir, e2e.configDir);
}

e2eTest(
  import.meta.url,
  "page runtime in a real browser: progress, logs, CSP, closed tabs, injection, navigation",
  {},
  async (t, { e2e, mcp }) => {
    const home = await e2e.open("/?tab=home");
    const homeTab = await readyTabId(e2e, home);

    await t.step("progress reported by the page reaches the MCP client", async () => {
      const seen: Json[] = [];
      const result: Json = await mcp.callTool(
        { name: `${PLUGIN}__slow`, arguments: { count: 4, delayMs: 150, tabId: homeTab } },
        undefined,
        { onprogress: (p: Json) => void seen.push(p) },
      );
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assertEquals(unmarked(result).structuredContent, { steps: 4 });
      const expected = [1, 2, 3, 4].map((i) => ({
        progress: i,
        total: 4,
        message: `step ${i} of 4`,
      }));
      // All of them, the last one too (posted right before the handler returned): the extension
      // delivers a call's page events before its result.
      assertEquals(seen, expected);
    });

    await t.step({
      name: "every progress report reaches the MCP client, the last one too",
      fn: async () => {
        const seen: Json[] = [];
        await mcp.callTool(
          { name: `${PLUGIN}__slow`, arguments: { count: 2, delayMs: 100, tabId: homeTab } },
          undefined,
          { onprogress: (p: Json) => void seen.push(p) },
        );
        assertEquals(seen, [
          { progress: 1, total: 2, message: "step 1 of 2" },
          { progress: 2, total: 2, message: "step 2 of 2" },
        ]);
      },
    });

    await t.step("plugin logs reach MCP clients as notifications/message", async () => {
      const messages: Json[] = [];
      mcp.setNotificationHandler(
        LoggingMessageNotificationSchema,
        (n: Json) => void messages.push(n.params),
      );
      const fromPlugin = (text: string) =>
        messages.filter((m) =>
          m.logger === `plugin:${PLUGIN}` &&
          JSON.stringify(m.data).includes(text)
        );
      // The client opens its notification stream in the background: call until entries arrive.
      await eventually(
        async () => {
          await okValue(e2e, `${PLUGIN}__log_messages`, { message: "stream-check" });
          await delay(300);
          return fromPlugin("stream-check").length > 0;
        },
        () => `no notifications/message arrived: ${JSON.stringify(messages)}`,
      );

      assertEquals(
        await okValue(e2e, `${PLUGIN}__log_messages`, { message: "all-levels" }),
        { written: 4 },
      );
      await eventually(
        () => Promise.resolve(fromPlugin("all-levels").length >= 4),
        () => `log messages: ${JSON.stringify(messages)}`,
      );
      assertEquals(fromPlugin("all-levels"), [
        { level: "debug", logger: `plugin:${PLUGIN}`, data: "debug: all-levels" },
        {
          level: "info",
          logger: `plugin:${PLUGIN}`,
          data: { message: "info: all-levels", data: { level: "info", n: 1 } },
        },
        { level: "warning", logger: `plugin:${PLUGIN}`, data: "warn: all-levels" },
        {
          level: "error",
          logger: `plugin:${PLUGIN}`,
          // A DOM node cannot travel: the SDK replaces it with a marker.
          data: { message: "error: all-levels", data: { element: "[DOM node]" } },
        },
      ]);

      // logging/setLevel: this session then gets warning and above only.
      await mcp.setLoggingLevel("warning");
      await okValue(e2e, `${PLUGIN}__log_messages`, { message: "filtered" });
      await eventually(
        () => Promise.resolve(fromPlugin("filtered").some((m) => m.level === "error")),
        () => `log messages: ${JSON.stringify(messages)}`,
      );
      // Entries of one batch are broadcast in order: debug and info came before error, if at all.
      assertEquals(fromPlugin("filtered").map((m) => m.level), ["warning", "error"]);
      await mcp.setLoggingLevel("debug");

      // server.log and `hub logs --plugin` have the entries as [plugin:test-app] lines.
      const logs = await runHub(["logs", "--plugin", PLUGIN, "--lines", "200"], {
        configDir: e2e.configDir,
      });
      assertEquals(logs.code, 0, logs.stderr);
      const lines = logs.stdout.split("\n").filter((l) => l !== "");
      assert.ok(lines.length > 0, "hub logs --plugin printed nothing");
      for (const line of lines) assert.ok(line.includes(`[plugin:${PLUGIN}]`), line);
      for (const text of ["info: all-levels", "error: all-levels"]) {
        assert.ok(lines.some((l) => l.includes(text)), `${text} missing in:\n${logs.stdout}`);
      }
      // server.log is written at HUB_LOG_LEVEL (default info): no debug entries there.
      assert.ok(!logs.stdout.includes("debug: all-levels"), logs.stdout);
      assertMatch(logs.stdout, /\[plugin:test-app\] warn: all-levels/);
      assertMatch(logs.stdout, /info: all-levels \{"level":"info","n":1\}/);
    });

    await t.step("a strict-CSP page gets the adapter and its tools work there", async () => {
      const page = await e2e.browser.context.newPage();
      await installCollector(page);
      const response = await page.goto(new URL("/csp?tab=csp", e2e.app.url).href);
      assertEquals(response?.headers()["content-security-policy"], STRICT_CSP);
      const tabId = await readyTabId(e2e, page);
      assertEquals(await okValue(e2e, `${PLUGIN}__get_user`, { tabId }), { name: USER_NAME });
      assertEquals(
        await okValue(e2e, `${PLUGIN}__echo`, { text: "under CSP", count: 2, tabId }),
        { text: "under CSP", count: 2 },
      );
      // The adapter registered in the page and the policy blocked nothing of ours.
      assertEquals(await registrations(page), 1);
      const violations = await page.evaluate(() => (globalThis as Json).__collected.violations);
      assertEquals(violations, []);
      await page.close();
    });

    await t.step("a tab closed mid-call fails the call at once with TAB_CLOSED", async () => {
      const page = await openCollected(e2e, "/?tab=doomed");
      const tabId = await readyTabId(e2e, page);
      // 50 steps, 1 s apart: without the close it would run for 50 s.
      const call = slowCall(mcp, tabId, 50, 1_000);
      // Wait until the handler runs in the page (its first progress report reached the client).
      await eventually(call.started, () => "the slow call never started in the page");
      const closedAt = Date.now();
      await page.close();
      const reply = await call.result;
      const afterClose = Date.now() - closedAt;
      assertEquals(reply.isError, true, JSON.stringify(reply));
      assertEquals(reply.structuredContent.error.code, "TAB_CLOSED");
      assertEquals(reply.structuredContent.error.category, "unavailable");
      // Generous: the hub's own timeout is 30 s and the tool had 49 s left.
      assert.ok(afterClose < 20_000, `the call ended ${afterClose} ms after the tab closed`);
      // The hub heard that the tab is gone; the home tab still works.
      await e2e.waitForTabState("ready", (d) => !d.tabs.some((tab) => tab.tabId === tabId));
      assertEquals(await okValue(e2e, `${PLUGIN}__echo`, { text: "still", tabId: homeTab }), {
        text: "still",
      });
    });

    let page!: Page;
    let tabId!: number;
    await t.step("the adapter is injected once per build and document", async () => {
      page = await openCollected(e2e, "/?tab=once");
      tabId = await readyTabId(e2e, page);
      assertEquals(await registrations(page), 1);
      await markAdapter(page, "first");
      for (let i = 0; i < 5; i++) {
        assertEquals(await okValue(e2e, `${PLUGIN}__echo`, { text: `call ${i}`, tabId }), {
          text: `call ${i}`,
        });
      }
      assertEquals(await okValue(e2e, `${PLUGIN}__get_user`, { tabId }), { name: USER_NAME });
      // A reload with the plugin unchanged: sync.full again, every tab re-probed, no injection.
      const reload = await api(e2e.hub, "POST", "/reload");
      assertEquals(reload.status, 200, JSON.stringify(reload.body));
      await delay(1_500); // let the extension handle sync.full and re-probe the tabs
      assertEquals(await okValue(e2e, `${PLUGIN}__echo`, { text: "after reload", tabId }), {
        text: "after reload",
      });
      assertEquals(await registrations(page), 1);
      assertEquals(await adapterMark(page), "first");
      assertEquals((await e2e.plugin()).tabs.find((x) => x.tabId === tabId)?.ready, true);
    });

    await t.step("after a page reload the new document gets the adapter again", async () => {
      await page.reload();
      // The collector starts over in the new document; the old adapter object is gone.
      await eventually(
        async () => (await registrations(page)) === 1,
        async () => `registrations in the new document: ${await registrations(page)}`,
      );
      assertEquals(await adapterMark(page), null);
      assertEquals(await readyTabId(e2e, page), tabId);
      assertEquals(await okValue(e2e, `${PLUGIN}__get_user`, { tabId }), { name: USER_NAME });
      await delay(500);
      assertEquals(await registrations(page), 1);
    });

    await t.step("SPA navigation (history.pushState) keeps the tab ready", async () => {
      await markAdapter(page, "before-spa");
      const spaUrl = new URL("/spa/route?view=2", e2e.app.url).href;
      await page.evaluate(() =>
        (globalThis as Json).history.pushState({ view: 2 }, "", "/spa/route?view=2")
      );
      assertEquals(page.url(), spaUrl);
      // The hub sees the new URL, ready (again).
      assertEquals(await readyTabId(e2e, page, spaUrl), tabId);
      assertEquals(await okValue(e2e, `${PLUGIN}__echo`, { text: "spa", tabId }), {
        text: "spa",
      });
      // Same document: no new injection, the same adapter object.
      assertEquals(await registrations(page), 1);
      assertEquals(await adapterMark(page), "before-spa");
      // Back navigation within the document, too.
      await page.evaluate(() => (globalThis as Json).history.back());
      await eventually(
        () => Promise.resolve(page.url() !== spaUrl),
        () => `history.back() left the page at ${page.url()}`,
      );
      assertEquals(await readyTabId(e2e, page), tabId);
      assertEquals(await okValue(e2e, `${PLUGIN}__get_user`, { tabId }), { name: USER_NAME });
      assertEquals(await registrations(page), 1);
    });

    await t.step({
      name: "a same-document navigation during a call does not fail it",
      fn: async () => {
        const call = slowCall(mcp, tabId, 6, 250);
        await eventually(call.started, () => "the slow call never started in the page");
        await page.evaluate(() =>
          (globalThis as Json).history.pushState({}, "", "/spa/during-call")
        );
        const reply = await call.result;
        assertEquals(reply.isError, undefined, JSON.stringify(reply));
        assertEquals(unmarked(reply).structuredContent, { steps: 6 });
        assertEquals(await registrations(page), 1);
      },
    });

    await t.step("a tab opened after the extension connected gets the adapter", async () => {
      const fresh = await openCollected(e2e, "/?tab=fresh");
      const freshTab = await readyTabId(e2e, fresh);
      assert.notEqual(freshTab, tabId);
      assertEquals(await registrations(fresh), 1);
      assertEquals(
        await okValue(e2e, `${PLUGIN}__echo`, { text: "fresh", tags: ["a"], tabId: freshTab }),
        { text: "fresh", tags: ["a"] },
      );
      await fresh.close();
    });

    await t.step("a rebuilt plugin (new hash) is injected into open tabs", async () => {
      const source = join(e2e.pluginDir, "src", "index.ts");
      const code = await Deno.readTextFile(source);
      const changed = code.replace(
        "handle: (input) => input,",
        "handle: (input) => ({ ...input, rebuilt: true }),",
      );
      assert.notEqual(changed, code, "the echo handler was not found in the plugin source");
      await Deno.writeTextFile(source, changed);
      await rebuildPlugin(e2e);
      const reload = await api(e2e.hub, "POST", "/reload");
      assertEquals(reload.status, 200, JSON.stringify(reload.body));
      await eventually(
        async () => (await registrations(page)) === 2,
        async () => `registrations after the rebuild: ${await registrations(page)}`,
      );
      await eventually(
        async () => {
          const value = await okValue(e2e, `${PLUGIN}__echo`, { text: "new", tabId });
          return value.rebuilt === true;
        },
        () => "echo never answered from the new build",
      );
      assertEquals(await okValue(e2e, `${PLUGIN}__echo`, { text: "new", tabId }), {
        text: "new",
        rebuilt: true,
      });
      await delay(1_000);
      assertEquals(await registrations(page), 2);
    });
  },
);
