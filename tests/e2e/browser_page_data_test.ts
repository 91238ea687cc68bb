/**
 * browser_get_console_logs, browser_get_cookies and browser_screenshot_tab's size cap and save,
 * end to end: real hub, real Chromium with the installed extension, the test web app. Results
 * are checked against what the browser really did (playwright's console events and cookie jar,
 * the page's own `document.cookie`, the image bytes, the saved file).
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import type { Client } from "../helpers/mcp_client.ts";
import { MAX_CHARS } from "../../protocol/text_cap.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { unmarked } from "../helpers/page_content.ts";

interface Entry {
  time: string;
  level: string;
  text: string;
  source?: string;
}
interface ConsoleValue {
  tabId: number;
  url: string;
  entries: Entry[];
  total: number;
  dropped: number;
  note?: string;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const decode = (data: string) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
const startsWith = (bytes: Uint8Array, signature: number[]) =>
  signature.every((b, i) => bytes[i] === b);

/** The tab ids the extension sees. */
async function tabIds(e2e: E2E): Promise<{ tabId: number; url: string }[]> {
  return ok(await callTool(e2e, "browser_list_tabs"), "list tabs").tabs;
}

function consoleLogs(e2e: E2E, tabId: number, args: Record<string, unknown> = {}) {
  return callTool(e2e, "browser_get_console_logs", { tabId, ...args });
}

e2eTest(import.meta.url, "console logs, cookies and screenshots in a real Chromium", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e, mcp }) => {
  await t.step("browser_get_console_logs", (t) => consoleSteps(t, e2e));
  await t.step("browser_get_cookies", (t) => cookieSteps(t, e2e));
  await t.step("browser_screenshot_tab", (t) => screenshotSteps(t, e2e, mcp!));
  await t.step("the hub caps any browser tool's output", async () => {
    const home = await e2e.open("/?tab=cap");
    try {
      const tabId = await tabIdOf(e2e, home);
      const reply = await callTool(e2e, "browser_execute_script", {
        tabId,
        code: "'x'.repeat(300000)",
      });
      assertEquals(reply.status, 200);
      const body = unmarked(reply.body); // the page-content marker, checked whole, taken off
      assertEquals(body.structuredContent, undefined, "cut JSON is not structured");
      const text: string = body.content[0].text;
      assert(text.length <= MAX_CHARS + 300, `${text.length} characters came back`);
      assertMatch(text, /…\[truncated: showed \d+ of \d+ characters\./);
    } finally {
      await home.close();
    }
  });
});

async function consoleSteps(t: Deno.TestContext, e2e: E2E) {
  // Listen before the page loads, to compare with what Chromium itself reports.
  const page = await e2e.browser.context.newPage();
  const seen: string[] = [];
  page.on("console", (message) => seen.push(message.type()));
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(new URL("/console", e2e.app.url).href);
  const tabId = await tabIdOf(e2e, page);
  try {
    await t.step("every level, the uncaught error and the rejection, oldest first", async () => {
      let value: ConsoleValue | undefined;
      await eventually(async () => {
        value = ok(await consoleLogs(e2e, tabId), "console logs");
        return value!.entries.length >= 7;
      }, () => `entries: ${JSON.stringify(value)}`);
      const { entries } = value!;
      assertEquals([value!.tabId, value!.url, value!.dropped], [tabId, page.url(), 0]);
      assertEquals(entries.slice(0, 5).map((e) => [e.level, e.text.split("\n")[0]]), [
        ["debug", "debug message 1"],
        ["log", 'log message formatted {"a": 1, "list": [1, "two"]}'],
        ["info", "info message"],
        ["warn", "warn message"],
        ["error", "error message TypeError: inner"],
      ]);
      assertMatch(entries[4].text, /TypeError: inner\n\s+at .*\/console/, "with its stack");
      const uncaught = entries.find((e) => e.source === "uncaught");
      const rejection = entries.find((e) => e.source === "unhandledrejection");
      assertEquals(uncaught?.level, "error");
      assertMatch(uncaught!.text, /^Uncaught Error: uncaught boom/);
      assertEquals(rejection?.level, "error");
      assertMatch(rejection!.text, /^Uncaught \(in promise\) Error: rejected boom/);
      for (const entry of entries) {
        const age = Date.now() - Date.parse(entry.time);
        assert(age >= 0 && age < 60_000, `time ${entry.time}`);
      }
      // Chromium saw the same five console calls and the uncaught error.
      assertEquals(seen.slice(0, 5), ["debug", "log", "info", "warning", "error"]);
      assert(errors.includes("uncaught boom"), JSON.stringify(errors));
    });

    await t.step("level is a minimum; limit keeps the newest", async () => {
      const warn = ok(await consoleLogs(e2e, tabId, { level: "warn" }), "warn") as ConsoleValue;
      assertEquals(warn.entries.map((e) => e.level), ["warn", "error", "error", "error"]);
      const info = ok(await consoleLogs(e2e, tabId, { level: "info" }), "info") as ConsoleValue;
      assertEquals(info.entries.map((e) => e.level).slice(0, 2), ["log", "info"]);
      await page.evaluate("logMany(30)");
      const last = ok(await consoleLogs(e2e, tabId, { limit: 5 }), "limit") as ConsoleValue;
      assertEquals(last.entries.map((e) => e.text), [25, 26, 27, 28, 29].map((i) => `many ${i}`));
      assertEquals(last.total, 37);
      assertMatch(last.note!, /newest 5 of 37/);
      failed(await consoleLogs(e2e, tabId, { limit: 1001 }), {
        status: 400,
        code: "INVALID_ARGUMENTS",
      });
      failed(await consoleLogs(e2e, tabId, { level: "log" }), {
        status: 400,
        code: "INVALID_ARGUMENTS",
      });
    });

    await t.step("clear empties the log; Chromium keeps the last 1000", async () => {
      const cleared = ok(await consoleLogs(e2e, tabId, { clear: true }), "clear") as ConsoleValue;
      assertEquals(cleared.entries.length, 37);
      assertEquals(ok(await consoleLogs(e2e, tabId), "after clear").entries, []);
      await page.evaluate("logMany(1100, 'info')");
      const full = ok(await consoleLogs(e2e, tabId, { limit: 1000 }), "full") as ConsoleValue;
      // V8 drops its oldest messages without counting them: dropped stays 0.
      assertEquals([full.entries.length, full.dropped, full.total], [1000, 0, 1000]);
      assertEquals([full.entries[0].text, full.entries[999].text], ["many 100", "many 1099"]);
    });

    await t.step("no recorder on the page: console.log is native, no hub global", async () => {
      // The test plugin matches this page: its adapter's door is the one hub name there.
      const probe = await page.evaluate(() => ({
        log: console.log.toString(),
        buffer: Symbol.for("hub.consoleBuffer") in globalThis,
        names: Object.getOwnPropertyNames(globalThis).filter((n) =>
          /hub/i.test(n) && !n.startsWith("__hubAdapter:test-app:")
        ),
      }));
      assertEquals(probe, { log: "function log() { [native code] }", buffer: false, names: [] });
      await page.reload();
      await eventually(
        async () =>
          (ok(await consoleLogs(e2e, tabId), "reloaded") as ConsoleValue).entries
            .length >= 5,
        () => "no entries after the reload",
      );
    });

    await t.step("a strict CSP page's console is read too", async () => {
      const csp = await e2e.open("/csp?tab=console");
      try {
        const cspTab = await tabIdOf(e2e, csp);
        await csp.evaluate("console.warn('under csp')"); // through DevTools, not the page's eval
        const value = ok(await consoleLogs(e2e, cspTab), "csp") as ConsoleValue;
        assertEquals(value.note, undefined);
        assertEquals(value.entries.map((e) => e.text), ["under csp"]);
      } finally {
        await csp.close();
      }
    });

    await t.step("about:blank is NOT_A_WEB_PAGE; a closed tab is TAB_NOT_FOUND", async () => {
      const blank = await openBlank(e2e);
      try {
        failed(await consoleLogs(e2e, blank.tabId), {
          status: 422,
          code: "NOT_A_WEB_PAGE",
          message: /about:blank/,
        });
      } finally {
        await blank.page.close();
      }
      await eventually(
        async () => !(await tabIds(e2e)).some((tab) => tab.tabId === blank.tabId),
        () => "the blank tab never went away",
      );
      failed(await consoleLogs(e2e, blank.tabId), { status: 404, code: "TAB_NOT_FOUND" });
    });
  } finally {
    await page.close();
  }
}

/** A new about:blank tab and its id (the tab that was not there before). */
async function openBlank(e2e: E2E): Promise<{ page: Page; tabId: number }> {
  const before = new Set((await tabIds(e2e)).map((t) => t.tabId));
  const page = await e2e.browser.context.newPage();
  let tabId: number | undefined;
  await eventually(async () => {
    tabId = (await tabIds(e2e)).find((t) => !before.has(t.tabId) && t.url === "about:blank")
      ?.tabId;
    return tabId !== undefined;
  }, () => "the new blank tab never showed up");
  return { page, tabId: tabId! };
}

async function cookieSteps(t: Deno.TestContext, e2e: E2E) {
  const page = await e2e.open("/cookies");
  const tabId = await tabIdOf(e2e, page);
  try {
    await t.step("the cookies sent to the tab's URL, HttpOnly included", async () => {
      const value = ok(await callTool(e2e, "browser_get_cookies", { tabId }), "cookies");
      assertEquals([value.tabId, value.url], [tabId, page.url()]);
      const byName = Object.fromEntries(
        (value.cookies as Record<string, unknown>[]).map((c) => [c.name, c]),
      );
      assertEquals(Object.keys(byName).sort(), ["prefs", "session_id", "visible"]);
      assertEquals(byName.session_id, {
        name: "session_id",
        value: "secret-123",
        domain: "127.0.0.1",
        path: "/",
        secure: false,
        httpOnly: true,
        sameSite: "Strict",
        session: true,
        expires: null,
      });
      assertEquals(byName.visible.httpOnly, false);
      assertEquals(byName.prefs.sameSite, "Lax");
      assertEquals(byName.prefs.session, false);
      const inAnHour = Date.parse(byName.prefs.expires as string) - Date.now();
      assert(
        inAnHour > 3_500_000 && inAnHour <= 3_600_000,
        `prefs expires ${byName.prefs.expires}`,
      );
      // The page's own scripts cannot see the HttpOnly cookie; the browser's jar has them all.
      const pageCookies = await page.evaluate<string>("document.cookie");
      assertMatch(pageCookies, /visible=hello/);
      assert(!pageCookies.includes("session_id"), pageCookies);
      const jar = await e2e.browser.context.cookies(page.url());
      assertEquals(jar.map((c) => c.name).sort(), Object.keys(byName).sort());
    });

    await t.step("name filters by exact name", async () => {
      const value = ok(
        await callTool(e2e, "browser_get_cookies", { tabId, name: "session_id" }),
        "by name",
      );
      assertEquals(value.cookies.map((c: { name: string }) => c.name), ["session_id"]);
      const none = ok(await callTool(e2e, "browser_get_cookies", { tabId, name: "nope" }), "none");
      assertEquals(none.cookies, []);
    });

    await t.step("about:blank is NOT_A_WEB_PAGE", async () => {
      const blank = await openBlank(e2e);
      try {
        failed(await callTool(e2e, "browser_get_cookies", { tabId: blank.tabId }), {
          status: 422,
          code: "NOT_A_WEB_PAGE",
          message: /not a web page/,
        });
      } finally {
        await blank.page.close();
      }
    });
  } finally {
    await page.close();
  }
}

async function screenshotSteps(t: Deno.TestContext, e2e: E2E, mcp: Client) {
  const home = await e2e.open("/?tab=shot");
  const homeTab = await tabIdOf(e2e, home);
  const picture = await e2e.open("/picture");
  await picture.waitForFunction("document.title === 'Picture ready'");
  const pictureTab = await tabIdOf(e2e, picture);
  try {
    await t.step("a PNG as MCP image content through the SDK client", async () => {
      await home.bringToFront();
      const result = await mcp.callTool({
        name: "browser_screenshot_tab",
        arguments: { tabId: homeTab },
      });
      assert(!result.isError, JSON.stringify(result).slice(0, 500));
      const content = result.content as { type: string; data: string; mimeType: string }[];
      assertEquals(content.length, 1, "just the image");
      assertEquals([content[0].type, content[0].mimeType], ["image", "image/png"]);
      assert(startsWith(decode(content[0].data), PNG_SIGNATURE), "not a PNG");
    });

    await t.step("a PNG over maxBytes comes back as a smaller JPEG, saying so", async () => {
      const big = await callTool(e2e, "browser_screenshot_tab", {
        tabId: pictureTab,
        maxBytes: 3_750_000,
      });
      assertEquals(big.status, 200, JSON.stringify(big.body).slice(0, 500));
      assertEquals(big.body.content[0].mimeType, "image/png");
      const pngBytes = decode(big.body.content[0].data).length;
      const maxBytes = Math.floor(pngBytes / 2);
      const reply = await callTool(e2e, "browser_screenshot_tab", { tabId: pictureTab, maxBytes });
      assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
      const [image, note] = reply.body.content;
      assertEquals([image.type, image.mimeType], ["image", "image/jpeg"]);
      const jpeg = decode(image.data);
      assert(startsWith(jpeg, JPEG_SIGNATURE), "not a JPEG");
      assert(jpeg.length <= maxBytes, `${jpeg.length} > ${maxBytes}`);
      assertEquals(note.type, "text");
      assertMatch(
        note.text,
        new RegExp(
          `^Reduced: the PNG was ${pngBytes} bytes, over maxBytes ${maxBytes}, so this is a ` +
            `JPEG at quality (80|60|40) \\(${jpeg.length} bytes\\)\\.$`,
        ),
      );
    });

    await t.step("too large even as a JPEG: SCREENSHOT_TOO_LARGE", async () => {
      failed(await callTool(e2e, "browser_screenshot_tab", { tabId: pictureTab, maxBytes: 1000 }), {
        status: 422,
        code: "SCREENSHOT_TOO_LARGE",
        message: /over maxBytes 1000\. Pass a larger maxBytes/,
      });
      failed(await callTool(e2e, "browser_screenshot_tab", { tabId: pictureTab, maxBytes: 10 }), {
        status: 400,
        code: "INVALID_ARGUMENTS",
      });
    });

    await t.step("save: true writes the image under <config>/screenshots", async () => {
      await home.bringToFront();
      const reply = await callTool(e2e, "browser_screenshot_tab", { tabId: homeTab, save: true });
      assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
      const [image, saved] = reply.body.content;
      assertEquals(image.mimeType, "image/png");
      const match = /^Saved the screenshot to (.+)$/.exec(saved.text);
      assert(match, saved.text);
      const path = match[1];
      const dir = join(e2e.configDir, "screenshots");
      assertMatch(path, /screenshot-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-tab\d+\.png$/);
      assertEquals(path.startsWith(dir + "/"), true, path);
      assert(path.endsWith(`-tab${homeTab}.png`), path);
      const bytes = await Deno.readFile(path);
      assert(startsWith(bytes, PNG_SIGNATURE), "the file is not a PNG");
      assertEquals(bytes, decode(image.data), "the file is the returned image");
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    });
  } finally {
    await picture.close();
    await home.close();
  }
}
