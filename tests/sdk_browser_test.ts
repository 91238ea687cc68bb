/**
 * The plugin SDK in a real browser, without the extension: the test plugin
 * (tests/fixtures/plugins/test-app) is built by `hub-plugin build`, its `dist/adapter.iife.js` is
 * injected into pages of the test web app (tests/fixtures/web_app/server.ts) in headless Chromium,
 * and the registered adapter is called the way the extension calls it (protocol/adapter.ts).
 *
 * One browser, one web app and one build for the file; every test opens its own browser context.
 */
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  browserGate,
  callTool,
  collected,
  eventsOf,
  exposeDoor,
  installCollector,
  launchChromium,
  probeReady,
} from "./helpers/browser.ts";
import { tempConfigDir } from "./helpers/hub_process.ts";
import { buildTestPlugin } from "./helpers/test_plugin.ts";
import { ITEMS, startTestWebApp, type TestWebApp, USER_NAME } from "./fixtures/web_app/server.ts";
import { ERROR_CATEGORIES, type ErrorPayload } from "../protocol/errors.ts";
import type { AdapterCall, AdapterResult } from "../protocol/adapter.ts";
import { SDK_VERSION } from "../protocol/version.ts";

const PLUGIN = "test-app";
const gate = browserGate(import.meta.url);

let app: TestWebApp;
let browser: Browser;
let configDir = "";
let pluginDir = "";
let adapterCode = "";
let toolNames: string[] = [];

Deno.test.beforeAll(async () => {
  if (gate.ignore) return;
  gate.check();
  configDir = await tempConfigDir();
  pluginDir = await buildTestPlugin(configDir);
  // With its door's key kept in the page, as the extension would receive it.
  adapterCode = exposeDoor(await Deno.readTextFile(join(pluginDir, "dist", "adapter.iife.js")));
  const tools = JSON.parse(await Deno.readTextFile(join(pluginDir, "dist", "tools.json")));
  toolNames = tools.tools.map((t: { name: string }) => t.name);
  app = await startTestWebApp();
  browser = await launchChromium();
});

Deno.test.afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (pluginDir) await Deno.remove(pluginDir, { recursive: true });
  if (configDir) await Deno.remove(configDir, { recursive: true });
});

/**
 * A test in its own browser context on `path` of the web app, with the collector installed and
 * (unless `inject: false`) the adapter injected as an inline script.
 */
function browserTest(
  name: string,
  fn: (page: Page, context: BrowserContext) => Promise<void>,
  options: { path?: string; inject?: boolean } = {},
) {
  Deno.test({
    name,
    ignore: gate.ignore,
    async fn() {
      app.setLoggedIn(true);
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await installCollector(page);
        await page.goto(new URL(options.path ?? "/", app.url).href);
        if (options.inject !== false) await page.addScriptTag({ content: adapterCode });
        await fn(page, context);
      } finally {
        await context.close();
      }
    },
  });
}

function call(page: Page, tool: string, input = {}, extra: Partial<AdapterCall> = {}) {
  return callTool(page, PLUGIN, { ...extra, tool, input });
}

function value(result: AdapterResult): unknown {
  assert(result.ok, `expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

function failure(result: AdapterResult): ErrorPayload {
  assert(!result.ok, `expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}

browserTest(
  "the built adapter puts a frozen door under a random name and hands out its key",
  async (page) => {
    const registered = await page.evaluate((plugin) => {
      const scope = globalThis as unknown as Record<string, unknown>;
      const [{ default: key }] = scope.__testDoors as { default: Record<string, string> }[];
      const doors = Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__hub"));
      const door = scope[key.key] as Record<string, unknown>;
      const functions = ["exchange", "probe", "close"].map((f) => typeof door[f]);
      return { doors, key, functions, frozen: Object.isFrozen(door), plugin };
    }, PLUGIN);
    assertEquals(registered.doors, [registered.key.key]);
    assertMatch(registered.key.key, /^__hubAdapter:test-app:[0-9a-f]{32}$/);
    assertEquals([registered.key.plugin, registered.key.sdkVersion], [PLUGIN, SDK_VERSION]);
    assertEquals(registered.functions, ["function", "function", "function"]);
    assert(registered.frozen);
    const expected = "echo get_user list_items slow fail http_status log_messages get_settings";
    assertEquals(toolNames, [...expected.split(" "), "wait_for_late"]);
    // Registering asks the extension to probe readiness.
    const [hint] = await eventsOf(page, "readiness", 1);
    assertEquals(hint, { kind: "readiness" });
  },
);

browserTest(
  "isReady follows the login state, switched by the routes and by the app",
  async (page) => {
    assertEquals(await probeReady(page, PLUGIN), { ok: true, value: true });
    await page.click("#logout"); // GET /logout → 303 → / without #user
    await page.addScriptTag({ content: adapterCode });
    assertEquals(await probeReady(page, PLUGIN), { ok: true, value: false });
    await page.click("#login");
    await page.addScriptTag({ content: adapterCode });
    assertEquals(await probeReady(page, PLUGIN), { ok: true, value: true });
    app.setLoggedIn(false);
    await page.reload();
    await page.addScriptTag({ content: adapterCode });
    assertEquals(await probeReady(page, PLUGIN), { ok: true, value: false });
    assertEquals(await page.locator("#login-prompt").count(), 1);
  },
);

browserTest(
  "echo returns its input; bad input is INVALID_ARGUMENTS; an unknown tool is TOOL_NOT_FOUND",
  async (page) => {
    const input = { text: "hi", count: 2, tags: ["a", "b"] };
    assertEquals(value(await call(page, "echo", input)), input);
    const bad = failure(await call(page, "echo", { text: 5, count: 1.5 }));
    assertEquals([bad.code, bad.category, bad.retryable], [
      "INVALID_ARGUMENTS",
      "validation",
      false,
    ]);
    assertMatch(bad.message, /text: .*string/i);
    assertMatch(bad.message, /count: .*int/i);
    const missing = failure(await call(page, "nope"));
    assertEquals([missing.code, missing.category], ["TOOL_NOT_FOUND", "not_found"]);
    assertMatch(missing.message, /no tool "nope".*echo/);
  },
);

browserTest(
  "get_user: the user when logged in, an auth error (HTTP_401) when logged out",
  async (page) => {
    assertEquals(value(await call(page, "get_user")), { name: USER_NAME });
    app.setLoggedIn(false);
    const error = failure(await call(page, "get_user"));
    assertEquals([error.code, error.category, error.retryable], ["HTTP_401", "auth", false]);
    assertMatch(error.message, /GET \/api\/me answered HTTP 401/);
    assertEquals(error.details, { status: 401, url: "/api/me" });
  },
);

browserTest(
  "list_items: the result passes its output schema; a result that breaks it is INVALID_OUTPUT",
  async (page) => {
    assertEquals(value(await call(page, "list_items")), { items: ITEMS });
    const error = failure(await call(page, "list_items", { corrupt: true }));
    assertEquals([error.code, error.category], ["INVALID_OUTPUT", "internal"]);
    assertMatch(error.message, /Tool "list_items" returned items\.0\.id: .*number/);
  },
);

browserTest(
  "http_status: pageFetch maps HTTP statuses to error categories (404, 429, 500, 403, 400)",
  async (page) => {
    assertEquals(value(await call(page, "http_status", { code: 200 })), {
      status: 200,
      body: "status 200",
    });
    const cases = [
      [404, "not_found", false],
      [429, "rate_limit", true],
      [500, "unavailable", true],
      [403, "auth", false],
      [400, "validation", false],
    ] as const;
    for (const [code, category, retryable] of cases) {
      const error = failure(await call(page, "http_status", { code }));
      assertEquals(
        [error.code, error.category, error.retryable],
        [`HTTP_${code}`, category, retryable],
        `HTTP ${code}`,
      );
      assertMatch(error.message, new RegExp(`answered HTTP ${code}: status ${code}$`));
    }
  },
);

browserTest(
  "fail: a ToolError keeps code, category, message, retryable and details for every category",
  async (page) => {
    const retryableByDefault = ["timeout", "unavailable", "rate_limit"];
    for (const category of ERROR_CATEGORIES) {
      const code = `E_${category.toUpperCase()}`;
      const error = failure(
        await call(page, "fail", { category, code, message: `${category} on purpose` }),
      );
      assertEquals(error, {
        code,
        category,
        message: `${category} on purpose`,
        retryable: retryableByDefault.includes(category),
      });
    }
    const explicit = failure(
      await call(page, "fail", {
        category: "validation",
        code: "TRY_AGAIN",
        retryable: true,
        details: { field: "x" },
      }),
    );
    assertEquals(explicit, {
      code: "TRY_AGAIN",
      category: "validation",
      message: "failed on purpose",
      retryable: true,
      details: { field: "x" },
    });
    const notRetryable = failure(
      await call(page, "fail", { category: "timeout", code: "GONE", retryable: false }),
    );
    assertEquals(notRetryable.retryable, false);
  },
);

browserTest(
  "slow: reports progress count times with the call's dispatchId, then returns",
  async (page) => {
    const result = await call(page, "slow", { count: 3, delayMs: 30 }, { dispatchId: "d-slow" });
    assertEquals(value(result), { steps: 3 });
    const progress = await eventsOf(page, "progress", 3);
    assertEquals(
      progress.map(({ dispatchId, progress, total, message }) => ({
        dispatchId,
        progress,
        total,
        message,
      })),
      [1, 2, 3].map((i) => ({
        dispatchId: "d-slow",
        progress: i,
        total: 3,
        message: `step ${i} of 3`,
      })),
    );
  },
);

browserTest(
  "log_messages: one log batch with all four levels, JSON-safe data, mirrored to the console",
  async (page) => {
    const console: string[] = [];
    page.on("console", (m) => console.push(`${m.type()} ${m.text()}`));
    assertEquals(value(await call(page, "log_messages", { message: "m" })), { written: 4 });
    const [batch] = await eventsOf(page, "log", 1);
    assertEquals(batch.entries.map((e) => [e.level, e.message]), [
      ["debug", "debug: m"],
      ["info", "info: m"],
      ["warn", "warn: m"],
      ["error", "error: m"],
    ]);
    assertEquals(batch.entries[1].data, { level: "info", n: 1 });
    assertEquals(batch.entries[3].data, { element: "[DOM node]" });
    assert(batch.entries.every((e) => typeof e.timestamp === "number" && e.timestamp > 0));
    assertEquals(console.map((line) => line.split(" m")[0]), [
      "debug [hub:test-app] debug:",
      "info [hub:test-app] info:",
      "warning [hub:test-app] warn:",
      "error [hub:test-app] error:",
    ]);
  },
);

const SETTINGS = {
  instances: { work: "http://127.0.0.1:1/", home: "http://localhost:1/" },
  mode: "thorough",
  verbose: true,
  pageSize: 5,
};

browserTest(
  "get_settings: the call's settings and instance reach the tool; getSettings() is them",
  async (page) => {
    const instance = { name: "work", url: SETTINGS.instances.work };
    const result = value(await call(page, "get_settings", {}, { settings: SETTINGS, instance }));
    const { settings, instance: got, sameObject } = result as Record<string, unknown>;
    assertEquals({ settings, instance: got, sameObject }, {
      settings: SETTINGS,
      instance,
      sameObject: true,
    });
    const next = value(await call(page, "get_settings", {}, { settings: { mode: "fast" } }));
    const { fromGetSettings: _, ...rest } = next as Record<string, unknown>;
    assertEquals(rest, { settings: { mode: "fast" }, instance: null, sameObject: true });
  },
);

// Fails until sdk/channel.ts toJsonSafe tells a shared object from a cycle: it marks every object
// it has seen before as "[circular]", so the second field holding `settings` loses its value.
browserTest("a tool result that holds the same object in two fields keeps both", async (page) => {
  const result = value(await call(page, "get_settings", {}, { settings: SETTINGS }));
  assertEquals((result as Record<string, unknown>).fromGetSettings, SETTINGS);
});

browserTest(
  "wait_for_late: waits for #late on /late; elsewhere it fails with TIMEOUT",
  async (page) => {
    const before = await page.locator("#late").count();
    const result = value(await call(page, "wait_for_late", { timeoutMs: 15_000 })) as {
      text: string;
      waitedMs: number;
    };
    assertEquals(before, 0);
    assertEquals(result.text, "arrived after 4000 ms");
    assert(result.waitedMs > 0, `waited ${result.waitedMs} ms`);
    await page.goto(app.url);
    await page.addScriptTag({ content: adapterCode });
    const error = failure(await call(page, "wait_for_late", { timeoutMs: 200 }));
    assertEquals([error.code, error.category, error.retryable], ["TIMEOUT", "timeout", true]);
    assertMatch(error.message, /Timed out after 200 ms waiting for an element matching "#late"/);
  },
  { path: "/late?ms=4000" },
);

browserTest(
  "under a strict CSP with Trusted Types the adapter loads from a same-origin file and validates without eval",
  async (page) => {
    app.setAdapterScript(adapterCode);
    // The policy is in force: playwright's addScriptTag({ url }) assigns script.src a plain string.
    const refused = await page.addScriptTag({ url: "/adapter.js" }).then(
      () => "",
      (e) => e.message,
    );
    assertMatch(refused, /TrustedScriptURL/);
    // So the page loads the adapter itself, as a file: what the extension's `files: [...]` does.
    await page.goto(new URL("/csp?adapter=1", app.url).href);
    assertEquals(await probeReady(page, PLUGIN), { ok: true, value: true });
    assertEquals(value(await call(page, "echo", { text: "csp" })), { text: "csp" });
    assertEquals(failure(await call(page, "echo", { text: 1 })).code, "INVALID_ARGUMENTS");
    assertEquals(value(await call(page, "list_items")), { items: ITEMS });
    assertEquals(value(await call(page, "get_user")), { name: USER_NAME });
    await page.waitForTimeout(100); // violation events are dispatched in a later task
    assertEquals((await collected(page)).violations, []);
    // The detector works: eval from a page task is refused and reported. (A build whose zod is
    // not jitless is reported the same way, though its calls still succeed: zod falls back.)
    const evalError = await page.evaluate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      try {
        new Function("return 1")();
        return "";
      } catch (error) {
        return (error as Error).name;
      }
    });
    assertEquals(evalError, "EvalError");
    await page.waitForTimeout(100);
    assert((await collected(page)).violations.length > 0, "the eval was not reported");
  },
  { path: "/csp", inject: false },
);

browserTest(
  "cancel ends an exchange's wait for a call at once: the hub's deadline, not the page's",
  async (page) => {
    const ended = await page.evaluate(async (plugin) => {
      const scope = globalThis as unknown as Record<string, unknown>;
      const doors = scope.__testDoors as {
        default: { key: string; secret: string; plugin: string };
      }[];
      const { key, secret } = doors.filter((d) => d.default.plugin === plugin).at(-1)!.default;
      const door = scope[key] as {
        exchange(s: string, c: unknown[], w: number): Promise<{ kind: string }[] | null>;
        cancel(s: string, ids: number[]): boolean;
      };
      const request = {
        tool: "slow",
        input: { count: 50, delayMs: 5_000 },
        dispatchId: "d-cancelled",
        settings: {},
      };
      const started = Date.now();
      const exchange = door.exchange(secret, [{ id: 9, request }], 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = door.cancel("guess", [9]);
      const accepted = door.cancel(secret, [9]);
      const items = await exchange;
      return { refused, accepted, ms: Date.now() - started, kinds: items?.map((i) => i.kind) };
    }, PLUGIN);
    assertEquals([ended.refused, ended.accepted], [false, true]);
    assert(ended.ms < 3_000, `the exchange took ${ended.ms} ms after its call was cancelled`);
    assertEquals(ended.kinds?.includes("result"), false);
  },
);
