/**
 * The five built-in browser tools end to end: real hub, real Chromium with the installed
 * extension, the test web app. Calls go through REST (`POST /tools/<name>/call`) and the official
 * MCP SDK client; every result is checked against what the browser really did (playwright's view
 * of the pages, the web app's login state).
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import {
  type ApiReply,
  eventually,
  listTools,
  readConfig,
  writeConfig,
} from "../helpers/hub_api.ts";
import { failed, type ListedTab, listTabs, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { unmarked } from "../helpers/page_content.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Asserts `data` is a base64 PNG; returns its width and height (from the IHDR chunk). */
function assertPng(data: string): { width: number; height: number } {
  const bytes = decodeBase64(data);
  assertEquals([...bytes.slice(0, 8)], PNG_SIGNATURE, "not a PNG signature");
  assertEquals(new TextDecoder().decode(bytes.slice(12, 16)), "IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  assert(size.width > 0 && size.height > 0, `empty PNG ${JSON.stringify(size)}`);
  return size;
}

function execute(e2e: E2E, code: string, tabId?: number) {
  return callTool(e2e, "browser_execute_script", tabId === undefined ? { code } : { code, tabId });
}

e2eTest(import.meta.url, "browser tools in a real Chromium through REST and MCP", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e, mcp }) => {
  const url = (path: string) => new URL(path, e2e.app.url).href;
  const home = await e2e.open("/?tab=home");
  await e2e.waitForTabState("ready");
  const homeTab = await tabIdOf(e2e, home);

  await t.step(
    "browser_list_tabs lists every open tab with its id, window, url, title",
    async () => {
      const other = await e2e.open("/late?ms=0&tab=list");
      try {
        await home.bringToFront();
        let tabs: ListedTab[] = [];
        await eventually(async () => {
          tabs = await listTabs(e2e);
          return tabs.find((t) => t.tabId === homeTab)?.active === true &&
            tabs.some((t) => t.url === other.url() && t.title === "Late content");
        }, () => `tabs: ${JSON.stringify(tabs)}`);
        for (const tab of tabs) {
          assertEquals(typeof tab.tabId, "number");
          assertEquals(typeof tab.windowId, "number");
          assertEquals(typeof tab.url, "string");
          assertEquals(typeof tab.title, "string");
          assertEquals(typeof tab.active, "boolean");
        }
        // Exactly the pages playwright sees (the service worker is not a tab).
        assertEquals(
          tabs.map((t) => t.url).sort(),
          e2e.browser.context.pages().map((p) => p.url()).sort(),
        );
        assertEquals(new Set(tabs.map((t) => t.tabId)).size, tabs.length, "tab ids are unique");
        const app = tabs.find((t) => t.tabId === homeTab)!;
        assertEquals(app.url, url("/?tab=home"));
        assertEquals(app.title, "Test app");
        assertEquals(app.active, true);
        const late = tabs.find((t) => t.url === other.url())!;
        assertEquals(late.active, false, "only one active tab per window");
        assertEquals(late.windowId, app.windowId);
        assert(late.tabId !== app.tabId);
      } finally {
        await other.close();
      }
    },
  );

  await t.step("browser_navigate_tab loads a URL in the given tab", async (t) => {
    const page = await e2e.open("/?tab=nav");
    const tabId = await tabIdOf(e2e, page);
    try {
      await t.step("waits for the load and answers with the new page", async () => {
        const value = ok(
          await callTool(e2e, "browser_navigate_tab", { tabId, url: url("/csp?tab=nav") }),
          "navigate",
        );
        assertEquals(value, {
          tabId,
          url: url("/csp?tab=nav"),
          title: "Strict CSP",
          loaded: true,
        });
        // Playwright learns of the navigation from its own CDP event, which may come after the reply.
        await page.waitForURL(url("/csp?tab=nav"), { timeout: 10_000 });
        assertEquals(await page.title(), "Strict CSP");
        // The home tab was left alone.
        assertEquals(home.url(), url("/?tab=home"));
      });

      await t.step("waitForLoad: false answers while the page is still loading", async () => {
        // The web app answers /api/slow after 6 s: the call must not wait for it.
        const slow = url("/api/slow?ms=6000");
        const value = ok(
          await callTool(e2e, "browser_navigate_tab", { tabId, url: slow, waitForLoad: false }),
          "navigate without waiting",
        );
        assertEquals(value.tabId, tabId);
        assertEquals(value.loaded, false);
        const tab = (await listTabs(e2e)).find((t) => t.tabId === tabId);
        assertEquals(tab?.status, "loading", JSON.stringify(tab));
        // Leave the slow load behind (waiting for the next page's load this time).
        const back = ok(
          await callTool(e2e, "browser_navigate_tab", { tabId, url: url("/?tab=nav2") }),
          "navigate back",
        );
        assertEquals([back.url, back.title, back.loaded], [
          url("/?tab=nav2"),
          "Test app",
          true,
        ]);
      });

      await t.step("a non-http(s) URL is INVALID_ARGUMENTS (400)", async () => {
        for (const bad of ["javascript:alert(1)", "file:///etc/passwd", "chrome://settings"]) {
          failed(await callTool(e2e, "browser_navigate_tab", { tabId, url: bad }), {
            status: 400,
            code: "INVALID_ARGUMENTS",
            message: /url/,
          });
        }
        failed(await callTool(e2e, "browser_navigate_tab", { tabId, url: "not a url" }), {
          status: 400,
          code: "INVALID_ARGUMENTS",
        });
        assertEquals(page.url(), url("/?tab=nav2"), "the tab did not move");
      });

      await t.step("a tab that does not exist is TAB_NOT_FOUND (404)", async () => {
        const gone = await e2e.open("/?tab=gone");
        const goneTab = await tabIdOf(e2e, gone);
        await gone.close();
        await eventually(
          async () => !(await listTabs(e2e)).some((t) => t.tabId === goneTab),
          () => `tab ${goneTab} never went away`,
        );
        const error = failed(
          await callTool(e2e, "browser_navigate_tab", { tabId: goneTab, url: url("/") }),
          { status: 404, code: "TAB_NOT_FOUND", message: new RegExp(String(goneTab)) },
        );
        assertEquals(error.retryable, false);
        assertEquals(e2e.browser.context.pages().some((p) => p.url() === url("/")), false);
      });
    } finally {
      await page.close();
    }
  });

  await t.step("browser_click_element clicks in the page", async (t) => {
    await t.step("clicking #logout logs out", async () => {
      assertEquals(e2e.app.loggedIn(), true);
      const value = ok(
        await callTool(e2e, "browser_click_element", { tabId: homeTab, selector: "#logout" }),
        "click #logout",
      );
      // The link navigates (/logout redirects home): the answer waited for the new page.
      assertEquals(value, {
        tabId: homeTab,
        clicked: true,
        tag: "a",
        text: "Log out",
        navigated: true,
        url: e2e.app.url,
        title: "Test app",
        loaded: true,
        input: "trusted",
      });
      await home.waitForSelector("#login-prompt");
      assertEquals(e2e.app.loggedIn(), false);
      assertEquals(await home.locator("#user").count(), 0);
      // The plugin sees the logged-out page too.
      await e2e.waitForTabState("unavailable");
    });

    await t.step("a selector that matches nothing is ELEMENT_NOT_FOUND (422)", async () => {
      failed(
        await callTool(e2e, "browser_click_element", { tabId: homeTab, selector: "#logout" }),
        {
          status: 422,
          code: "ELEMENT_NOT_FOUND",
          category: "not_found",
          message: /#logout/,
        },
      );
    });

    await t.step("an invalid selector is INVALID_SELECTOR (422)", async () => {
      failed(
        await callTool(e2e, "browser_click_element", { tabId: homeTab, selector: "a[[" }),
        {
          status: 422,
          code: "INVALID_SELECTOR",
          category: "validation",
          message: /a\[\[/,
        },
      );
      assertEquals(e2e.app.loggedIn(), false, "nothing was clicked");
    });

    await t.step("clicking #login logs back in", async () => {
      const value = ok(
        await callTool(e2e, "browser_click_element", { tabId: homeTab, selector: "#login" }),
        "click #login",
      );
      assertEquals(value.clicked, true);
      await home.waitForSelector("#user");
      assertEquals(e2e.app.loggedIn(), true);
      await e2e.waitForTabState("ready");
    });
  });

  await t.step("browser_screenshot_tab returns a PNG image", async (t) => {
    let homeShot = "";
    await t.step("through the MCP SDK client", async () => {
      await home.bringToFront();
      const result = await mcp.callTool({
        name: "browser_screenshot_tab",
        arguments: { tabId: homeTab },
      });
      assert(!result.isError, JSON.stringify(result));
      const content = result.content as { type: string; data?: string; mimeType?: string }[];
      assertEquals(content.length, 1);
      assertEquals(content[0].type, "image");
      assertEquals(content[0].mimeType, "image/png");
      assertPng(content[0].data!);
      homeShot = content[0].data!;
    });

    await t.step("of a background tab given by tabId (REST)", async () => {
      const back = await e2e.open("/late?ms=0&tab=shot");
      const backTab = await tabIdOf(e2e, back);
      try {
        await back.waitForSelector("#late");
        await home.bringToFront();
        await eventually(
          async () => (await listTabs(e2e)).find((t) => t.tabId === backTab)?.active === false,
          () => "the tab never went to the background",
        );
        const reply = await callTool(e2e, "browser_screenshot_tab", { tabId: backTab });
        assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
        assertEquals(reply.body.content.length, 1);
        const [image] = reply.body.content;
        assertEquals([image.type, image.mimeType], ["image", "image/png"]);
        assertPng(image.data);
        // A different page than the home tab's: the picture is of the background tab.
        assert(image.data !== homeShot, "the background tab's screenshot shows the home tab");
      } finally {
        await back.close();
      }
    });
  });

  await t.step("browser_execute_script runs code in the page", async (t) => {
    await t.step("an expression's value", async () => {
      assertEquals(ok(await execute(e2e, "document.title", homeTab), "title"), {
        tabId: homeTab,
        value: "Test app",
      });
      // It is the page's own world: the DOM the page shows.
      assertEquals(
        ok(await execute(e2e, "document.querySelector('#user').textContent", homeTab), "user")
          .value,
        "Ada",
      );
    });

    await t.step("statements give the last value", async () => {
      assertEquals(
        ok(await execute(e2e, "const a = 2; a * 21", homeTab), "statements").value,
        42,
      );
      assertEquals(
        ok(
          await execute(e2e, "({ list: [1, 'two', null], nested: { ok: true } })", homeTab),
          "object",
        )
          .value,
        { list: [1, "two", null], nested: { ok: true } },
      );
    });

    await t.step("code with await, and promises, are awaited", async () => {
      assertEquals(
        ok(
          await execute(e2e, "await new Promise(r => setTimeout(r, 10)); return 7", homeTab),
          "await",
        ).value,
        7,
      );
      assertEquals(
        ok(await execute(e2e, "fetch('/api/me').then(r => r.json())", homeTab), "promise")
          .value,
        { name: "Ada" },
      );
    });

    await t.step("a thrown error is SCRIPT_ERROR with its message", async () => {
      failed(await execute(e2e, "throw new TypeError('kaboom 42')", homeTab), {
        status: 422,
        code: "SCRIPT_ERROR",
        message: /TypeError: kaboom 42/,
      });
      failed(await execute(e2e, "await Promise.reject(new Error('async kaboom'))", homeTab), {
        status: 422,
        code: "SCRIPT_ERROR",
        message: /async kaboom/,
      });
    });

    await t.step("DOM nodes and functions come back as descriptions", async () => {
      assertEquals(
        ok(await execute(e2e, "document.body", homeTab), "node").value,
        "[DOM node BODY]",
      );
      assertEquals(
        ok(
          await execute(
            e2e,
            "({ h1: document.querySelector('h1'), f: function named() {}, g: () => 1, big: 10n })",
            homeTab,
          ),
          "mixed",
        ).value,
        { h1: "[DOM node H1]", f: "[function named]", g: "[function g]", big: "10" },
      );
      assertEquals(
        ok(await execute(e2e, "const o = {}; o.self = o; o", homeTab), "cycle").value,
        {
          self: "[circular]",
        },
      );
      assertEquals(ok(await execute(e2e, "undefined", homeTab), "undefined").value, null);
    });

    await t.step("the MCP SDK client gets the value and the error", async () => {
      const result = await mcp.callTool({
        name: "browser_execute_script",
        arguments: { code: "document.title", tabId: homeTab },
      });
      assert(!result.isError, JSON.stringify(result));
      assertEquals(unmarked(result).structuredContent, { tabId: homeTab, value: "Test app" });
      const failure = await mcp.callTool({
        name: "browser_execute_script",
        arguments: { code: "throw new Error('via mcp')", tabId: homeTab },
      });
      assertEquals(failure.isError, true);
      const error = (failure.structuredContent as { error: { code: string; message: string } })
        .error;
      assertEquals(error.code, "SCRIPT_ERROR");
      assertMatch(error.message, /via mcp/);
    });

    await t.step("a strict-CSP page is SCRIPT_BLOCKED", async () => {
      const csp = await e2e.open("/csp?tab=exec");
      try {
        const cspTab = await tabIdOf(e2e, csp);
        failed(await execute(e2e, "document.title", cspTab), {
          status: 422,
          code: "SCRIPT_BLOCKED",
          category: "permission",
          message: /Content-Security-Policy/,
        });
        // Other browser tools still work there.
        ok(
          await callTool(e2e, "browser_click_element", { tabId: cspTab, selector: "h1" }),
          "click on the CSP page",
        );
      } finally {
        await csp.close();
      }
    });
  });

  await t.step("without a tabId the tools act on the focused window's active tab", async () => {
    const other = await e2e.open("/?tab=other");
    try {
      const otherTab = await tabIdOf(e2e, other);
      for (
        const [page, tabId] of [[home, homeTab], [other, otherTab], [home, homeTab]] as const
      ) {
        await page.bringToFront();
        let value: unknown;
        await eventually(async () => {
          value = ok(await execute(e2e, "location.href"), "location.href");
          return (value as { tabId: number }).tabId === tabId;
        }, () => `the call ran in ${JSON.stringify(value)}, not tab ${tabId}`);
        assertEquals(value, { tabId, value: page.url() });
      }
      // Other tools default the same way: navigate the (now active) home tab.
      const nav = ok(
        await callTool(e2e, "browser_navigate_tab", { url: url("/?tab=home2") }),
        "navigate without tabId",
      );
      assertEquals([nav.tabId, nav.url, nav.loaded], [homeTab, url("/?tab=home2"), true]);
      assertEquals(home.url(), url("/?tab=home2"));
      assertEquals(other.url(), url("/?tab=other"));
    } finally {
      await other.close();
    }
  });

  await t.step(
    "disabledBrowserTools turns a tool off (TOOL_DISABLED) on a live hub",
    async () => {
      const config = await readConfig(e2e.configDir);
      await writeConfig(e2e.configDir, {
        ...config,
        disabledBrowserTools: ["browser_execute_script"],
      });
      let reply: ApiReply | undefined;
      await eventually(async () => {
        reply = await execute(e2e, "document.title", homeTab);
        return reply.status === 403;
      }, () => `never disabled: ${JSON.stringify(reply)}`);
      failed(reply!, {
        status: 403,
        code: "TOOL_DISABLED",
        category: "permission",
        message: /disabledBrowserTools/,
      });
      const names = (await listTools(e2e.hub, "browser")).map((t) => t.name);
      assert(!names.includes("browser_execute_script"), names.join());
      assert(names.includes("browser_list_tabs"), names.join());
      ok(await callTool(e2e, "browser_list_tabs"), "other tools still work");
      const viaMcp = await mcp.callTool({
        name: "browser_execute_script",
        arguments: { code: "1" },
      });
      assertEquals(viaMcp.isError, true);
      assertEquals(
        (viaMcp.structuredContent as { error: { code: string } }).error.code,
        "TOOL_DISABLED",
      );

      await writeConfig(e2e.configDir, { ...config, disabledBrowserTools: [] });
      await eventually(
        async () => (await execute(e2e, "document.title", homeTab)).status === 200,
        () => "never enabled again",
      );
    },
  );
});
