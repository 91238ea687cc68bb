/**
 * The tab, window, navigation and extension tools end to end: real hub, real Chromium with the
 * installed extension, the test web app. Every result is checked against what the browser really
 * did (playwright's pages and their URLs, visibility, the web app's load counter). The
 * extension_reload step runs last: it restarts the extension.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  callTool,
  type E2E,
  e2eTest,
  markWorker,
  pageAt,
  waitForExtension,
  waitForNewWorker,
} from "../helpers/e2e_fixture.ts";
import { eventually, health } from "../helpers/hub_api.ts";
import { VERSION } from "../../protocol/version.ts";
import { failed, listTabs, ok, tabIdOf } from "../helpers/tool_replies.ts";

// What the evaluated function below uses inside the extension's service worker.
declare const chrome: {
  tabs: { query(q: Record<string, boolean>): Promise<{ id?: number }[]> };
};

/**
 * The active tab of the last focused window, asked of Chromium itself in the service worker (not
 * through the hub). Pages cannot tell: playwright emulates focus, so every page is "visible".
 */
async function browserActiveTab(e2e: E2E): Promise<number | undefined> {
  const worker = await e2e.browser.serviceWorker();
  return await worker.evaluate(async () =>
    (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id
  );
}

e2eTest(import.meta.url, "tab, window, navigation and extension tools in a real Chromium", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e, mcp }) => {
  const url = (path: string) => new URL(path, e2e.app.url).href;
  const home = await e2e.open("/?tab=home");
  const homeTab = await tabIdOf(e2e, home);
  const closedIds: number[] = [];

  await t.step("browser_list_windows (MCP) matches the browser", async () => {
    await home.bringToFront();
    const result = await mcp.callTool({ name: "browser_list_windows", arguments: {} });
    assert(!result.isError, JSON.stringify(result));
    const { windows } = result.structuredContent as { windows: Record<string, unknown>[] };
    const tabs = await listTabs(e2e);
    assertEquals(new Set(tabs.map((t) => t.windowId)).size, windows.length);
    const win = windows.find((w) => w.windowId === tabs[0].windowId)!;
    assertEquals(
      [win.type, win.incognito, win.state, win.tabCount],
      ["normal", false, "normal", e2e.browser.context.pages().length],
    );
    assertEquals(win.activeTabId, tabs.find((t) => t.active)?.tabId);
    assertEquals(win.activeTabId, homeTab);
    assert((win.width as number) > 0 && (win.height as number) > 0, JSON.stringify(win));
    assertEquals(typeof win.focused, "boolean");
    assertEquals(typeof win.left, "number");
  });

  await t.step("browser_open_tab opens a tab and waits for its page", async (t) => {
    await t.step("active by default, loaded", async () => {
      const value = ok(
        await callTool(e2e, "browser_open_tab", { url: url("/counter?name=open") }),
        "open",
      );
      const page = await pageAt(e2e, url("/counter?name=open"));
      assertEquals(value, {
        tabId: value.tabId,
        windowId: (await listTabs(e2e)).find((t) => t.tabId === homeTab)!.windowId,
        url: url("/counter?name=open"),
        title: "Counter 1",
        loaded: true,
      });
      assertEquals(await page.textContent("#count"), "1");
      const tabs = await listTabs(e2e);
      assertEquals(tabs.find((t) => t.tabId === value.tabId)?.active, true);
      assertEquals(tabs.find((t) => t.tabId === homeTab)?.active, false);
      await page.close();
    });

    await t.step("active: false leaves the active tab alone; about:blank", async () => {
      await home.bringToFront();
      const value = ok(
        await callTool(e2e, "browser_open_tab", { url: "about:blank", active: false }),
        "open about:blank",
      );
      assertEquals([value.url, value.loaded], ["about:blank", true]);
      const tabs = await listTabs(e2e);
      assertEquals(tabs.find((t) => t.tabId === value.tabId)?.active, false);
      assertEquals(tabs.find((t) => t.tabId === homeTab)?.active, true);
      ok(await callTool(e2e, "browser_close_tab", { tabId: value.tabId }), "close blank");
    });

    await t.step("waitForLoad: false answers while the page still loads", async () => {
      const slow = url("/api/slow?ms=4000&tab=open");
      const started = Date.now();
      const value = ok(
        await callTool(e2e, "browser_open_tab", { url: slow, waitForLoad: false }),
        "open slow",
      );
      assert(Date.now() - started < 3000, "the call waited for the slow page");
      assertEquals([value.url, value.loaded], [slow, false]);
      ok(await callTool(e2e, "browser_close_tab", { tabId: value.tabId }), "close slow");
    });

    await t.step("refused URLs and unknown windows", async () => {
      const before = e2e.browser.context.pages().length;
      for (const bad of ["file:///etc/passwd", "javascript:alert(1)", "chrome://settings"]) {
        failed(await callTool(e2e, "browser_open_tab", { url: bad }), {
          status: 400,
          code: "INVALID_ARGUMENTS",
          message: /http\(s\) URL .*about:blank/,
        });
      }
      failed(
        await callTool(e2e, "browser_open_tab", { url: url("/"), windowId: 987654 }),
        { status: 422, code: "WINDOW_NOT_FOUND", category: "not_found", message: /987654/ },
      );
      assertEquals(e2e.browser.context.pages().length, before, "no tab was opened");
    });
  });

  await t.step("browser_focus_tab activates the tab and focuses its window", async () => {
    const other = await e2e.open("/?tab=focus");
    const otherTab = await tabIdOf(e2e, other);
    try {
      await eventually(
        async () => (await browserActiveTab(e2e)) === otherTab,
        () => "the new page never became the active tab",
      );
      const value = ok(await callTool(e2e, "browser_focus_tab", { tabId: homeTab }), "focus");
      assertEquals([value.tabId, value.url, value.title], [homeTab, home.url(), "Test app"]);
      assertEquals(await browserActiveTab(e2e), homeTab);
      const tabs = await listTabs(e2e);
      assertEquals(tabs.find((t) => t.tabId === homeTab)?.active, true);
      assertEquals(tabs.find((t) => t.tabId === otherTab)?.active, false);
      const { windows } = ok(await callTool(e2e, "browser_list_windows"), "windows");
      const win = windows.find((w: { windowId: number }) => w.windowId === value.windowId);
      assertEquals(win.activeTabId, homeTab);
      failed(await callTool(e2e, "browser_focus_tab", {}), {
        status: 400,
        code: "INVALID_ARGUMENTS",
        message: /tabId/,
      });
    } finally {
      await other.close();
    }
  });

  await t.step("browser_reload_tab really loads the page again", async () => {
    const page = await e2e.open("/counter?name=reload");
    const tabId = await tabIdOf(e2e, page);
    try {
      assertEquals(await page.textContent("#count"), "1");
      const value = ok(await callTool(e2e, "browser_reload_tab", { tabId }), "reload");
      assertEquals(value, {
        tabId,
        url: url("/counter?name=reload"),
        title: "Counter 2",
        loaded: true,
      });
      assertEquals(await page.textContent("#count"), "2");
      // Without tabId: the active tab (this page, opened last).
      const again = ok(
        await callTool(e2e, "browser_reload_tab", { bypassCache: true }),
        "reload bypassing the cache",
      );
      assertEquals([again.tabId, again.title, again.loaded], [tabId, "Counter 3", true]);
      assertEquals(await page.textContent("#count"), "3");
      assertEquals(home.url(), url("/?tab=home"), "other tabs were left alone");
    } finally {
      await page.close();
    }
  });

  await t.step("browser_go_back / browser_go_forward walk the tab's history", async (t) => {
    const opened = ok(
      await callTool(e2e, "browser_open_tab", { url: url("/counter?name=h1") }),
      "open h1",
    );
    const tabId = opened.tabId as number;
    const page = await pageAt(e2e, url("/counter?name=h1"));
    try {
      await t.step("a fresh tab has nothing to go back to: NO_HISTORY", async () => {
        failed(await callTool(e2e, "browser_go_back", { tabId }), {
          status: 422,
          code: "NO_HISTORY",
          category: "validation",
          message: new RegExp(`Tab ${tabId} .*back`),
        });
        assertEquals(page.url(), url("/counter?name=h1"));
      });

      await t.step("across documents", async () => {
        ok(
          await callTool(e2e, "browser_navigate_tab", { tabId, url: url("/?tab=h2") }),
          "navigate h2",
        );
        const back = ok(await callTool(e2e, "browser_go_back", { tabId }), "back");
        assertEquals([back.tabId, back.url, back.loaded], [
          tabId,
          url("/counter?name=h1"),
          true,
        ]);
        // Playwright learns of the navigation from its own CDP event, which may come after the reply.
        await page.waitForURL(url("/counter?name=h1"), { timeout: 10_000 });
        const forward = ok(await callTool(e2e, "browser_go_forward", { tabId }), "forward");
        assertEquals([forward.url, forward.title, forward.loaded], [
          url("/?tab=h2"),
          "Test app",
          true,
        ]);
        // Playwright learns of the navigation from its own CDP event, which may come after the reply.
        await page.waitForURL(url("/?tab=h2"), { timeout: 10_000 });
        failed(await callTool(e2e, "browser_go_forward", { tabId }), {
          status: 422,
          code: "NO_HISTORY",
          category: "validation",
          message: /forward/,
        });
      });

      await t.step("same-document entries (pushState) do not hang", async () => {
        await page.evaluate('history.pushState({}, "", "?tab=h2&step=2")');
        // Playwright learns of the navigation from its own CDP event, which may come after the reply.
        await page.waitForURL(url("/?tab=h2&step=2"), { timeout: 10_000 });
        const started = Date.now();
        const back = ok(await callTool(e2e, "browser_go_back", { tabId }), "pushState back");
        assertEquals([back.url, back.loaded], [url("/?tab=h2"), true]);
        const forward = ok(
          await callTool(e2e, "browser_go_forward", { tabId }),
          "pushState forward",
        );
        assertEquals([forward.url, forward.loaded], [url("/?tab=h2&step=2"), true]);
        assert(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
        // Playwright learns of a same-document navigation from an event that may come later.
        await eventually(
          () => Promise.resolve(page.url() === url("/?tab=h2&step=2")),
          () => `the page is at ${page.url()}`,
        );
      });
    } finally {
      await page.close();
    }
  });

  await t.step("browser_close_tab closes the tab; its id is then TAB_NOT_FOUND", async () => {
    const page = await e2e.open("/?tab=close");
    const tabId = await tabIdOf(e2e, page);
    assertEquals(ok(await callTool(e2e, "browser_close_tab", { tabId }), "close"), {
      tabId,
      closed: true,
    });
    await eventually(() => Promise.resolve(page.isClosed()), () => "the page is still open");
    assert(!e2e.browser.context.pages().some((p) => p.url() === url("/?tab=close")));
    assert(!(await listTabs(e2e)).some((t) => t.tabId === tabId));
    closedIds.push(tabId);
    const tools = ["close_tab", "focus_tab", "reload_tab", "go_back", "go_forward"];
    for (const tool of tools) {
      failed(await callTool(e2e, `browser_${tool}`, { tabId }), {
        status: 404,
        code: "TAB_NOT_FOUND",
        category: "not_found",
        message: new RegExp(String(tabId)),
      });
    }
    assert(!home.isClosed(), "the other tabs stay open");
  });

  await t.step("extension_get_state summarizes the extension", async () => {
    const state = ok(await callTool(e2e, "extension_get_state"), "state");
    assertEquals(state.extensionVersion, VERSION);
    assertEquals([state.link.state, state.link.problem], ["connected", null]);
    assertEquals(state.link.port, e2e.hub.port);
    assertEquals([typeof state.pendingConfirmations, typeof state.runningCalls], [
      "number",
      "number",
    ]);
    assert(Array.isArray(state.plugins), JSON.stringify(state));
    assertEquals([state.hubVersion, state.skipPermissions], [VERSION, false]);
    const app = state.plugins.find((p: { name: string }) => p.name === "test-app");
    assertEquals([app?.permission, app?.tabState], ["auto", "ready"], JSON.stringify(app));
    assert(app.tools > 0 && app.tabs.some((t: { tabId: number }) => t.tabId === homeTab));
  });

  await t.step("extension_get_logs returns the extension's log (MCP and REST)", async () => {
    const result = await mcp.callTool({ name: "extension_get_logs", arguments: {} });
    assert(!result.isError, JSON.stringify(result));
    const { entries } = result.structuredContent as {
      entries: { time: string; level: string; message: string }[];
    };
    assert(entries.length > 0);
    for (const entry of entries) {
      assertEquals(new Date(entry.time).toISOString(), entry.time);
      assert(["debug", "info", "warn", "error"].includes(entry.level), entry.level);
    }
    const times = entries.map((e) => e.time);
    assertEquals(times, [...times].sort(), "oldest first, newest last");
    assert(
      entries.some((e) => e.level === "info" && e.message.includes(`Closed tab ${closedIds[0]}`)),
      JSON.stringify(entries),
    );
    assert(entries.some((e) => e.level === "debug"), "debug entries by default");
    const info = ok(await callTool(e2e, "extension_get_logs", { level: "info" }), "info");
    assert(info.entries.length > 0);
    assert(info.entries.every((e: { level: string }) => e.level !== "debug"));
    const one = ok(await callTool(e2e, "extension_get_logs", { limit: 1 }), "limit 1");
    assertEquals(one.entries.length, 1);
    failed(await callTool(e2e, "extension_get_logs", { limit: 501 }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
    });
  });

  await t.step("extension_reload reloads the extension, which reconnects", async () => {
    await markWorker(e2e);
    const value = ok(await callTool(e2e, "extension_reload"), "reload");
    assertEquals(value, { reloading: true, version: VERSION });
    await waitForNewWorker(e2e);
    await waitForExtension(e2e);
    assertEquals((await health(e2e.hub)).extensionConnected, true);
    assertMatch(e2e.hub.output(), /Extension disconnected/);
    // The new worker answers tools, with a fresh log.
    await eventually(
      async () => (await callTool(e2e, "browser_list_tabs")).status === 200,
      () => "browser tools do not work after the reload",
    );
    const logs = ok(await callTool(e2e, "extension_get_logs"), "logs after reload");
    assert(
      !logs.entries.some((e: { message: string }) => e.message.includes("Closed tab")),
      JSON.stringify(logs),
    );
    assert((await listTabs(e2e)).some((t) => t.tabId === homeTab), "tabs survive");
  });
});
