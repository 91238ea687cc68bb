/**
 * One real setup for end-to-end tests: the test plugin built into a temp config dir (permission
 * `auto` unless told otherwise, and `defaultSitePermission` `auto`), the real hub started with
 * `hub start` on port 0 (it installs the extension into `<config>/extension`), the test web app,
 * and Chromium with that extension.
 * `e2eTest` wraps a whole browser test in it: the browser gate, the setup, waiting for the
 * extension, an MCP client, and the teardown.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api, eventually, health, readConfig, writeConfig } from "./hub_api.ts";
import { type RunningHub, startHub, tempConfigDir } from "./hub_process.ts";
import { buildTestPlugin } from "./test_plugin.ts";
import { type ExtensionBrowser, launchWithExtension } from "./extension_browser.ts";
import { startTestWebApp, type TestWebApp } from "../fixtures/web_app/server.ts";
import type { PluginDetail } from "../../protocol/health.ts";
import type { Permission } from "../../protocol/permission.ts";
import { browserGate } from "./browser_gate.ts";
import { type Client, connectMcp } from "./mcp_client.ts";

export const PLUGIN = "test-app";

export interface E2E {
  configDir: string;
  pluginDir: string;
  hub: RunningHub;
  app: TestWebApp;
  browser: ExtensionBrowser;
  /** Opens `path` of the web app (or a full URL) in a new tab. */
  open(path?: string): Promise<Page>;
  /** The test plugin's entry in /health. */
  plugin(): Promise<PluginDetail>;
  /** Waits until the test plugin's tab state is `state` (and `check` holds, when given). */
  waitForTabState(
    state: PluginDetail["tabState"],
    check?: (detail: PluginDetail) => boolean,
  ): Promise<PluginDetail>;
  /** Restarts the hub on the same port and config dir. */
  restartHub(): Promise<void>;
  close(): Promise<void>;
}

/** Something the hub needs that a test starts first (a test registry): its env goes to the hub. */
export interface E2EService {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface E2EOptions {
  /** Extra config.json fields (merged over the built plugin's entry). */
  config?: Record<string, unknown>;
  permission?: Permission;
  env?: Record<string, string>;
  /** Started before everything else and stopped after it; its env is added to `env`. */
  service?: () => Promise<E2EService>;
}

export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  const service = await options.service?.();
  try {
    return await startWith({ ...options, env: { ...options.env, ...service?.env } }, service);
  } catch (error) {
    await service?.stop();
    throw error;
  }
}

async function startWith(options: E2EOptions, service?: E2EService): Promise<E2E> {
  const configDir = await tempConfigDir();
  const pluginDir = await buildTestPlugin(configDir);
  const config = await readConfig(configDir);
  await writeConfig(configDir, {
    ...config,
    permissions: { [PLUGIN]: { permission: options.permission ?? "auto" } },
    // A new install asks before browser tools touch any site; suites written before site
    // permissions expect them to act, so sites are `auto` here unless `config` says otherwise.
    defaultSitePermission: "auto",
    ...options.config,
  });
  let hub = await startHub({ configDir, env: options.env });
  const app = await startTestWebApp();
  const browser = await launchWithExtension(join(configDir, "extension"));
  const e2e: E2E = {
    configDir,
    pluginDir,
    get hub() {
      return hub;
    },
    app,
    browser,
    async open(path = "/") {
      const page = await browser.context.newPage();
      await page.goto(new URL(path, app.url).href);
      return page;
    },
    async plugin() {
      const detail = (await health(hub)).pluginDetails.find((p) => p.name === PLUGIN);
      if (!detail) throw new Error(`${PLUGIN} is not loaded: ${hub.output()}`);
      return detail;
    },
    async waitForTabState(state, check = () => true) {
      let last: PluginDetail | undefined;
      await eventually(
        async () => {
          last = await e2e.plugin();
          return last.tabState === state && check(last);
        },
        () => `tab state ${state} never came; last: ${JSON.stringify(last)}`,
      );
      return last!;
    },
    async restartHub() {
      const port = hub.port;
      await hub.stop();
      hub = await startHub({ configDir, port, env: options.env });
    },
    async close() {
      await browser.close();
      await hub.stop();
      await app.close();
      await Deno.remove(pluginDir, { recursive: true }).catch(() => {});
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
      await service?.stop();
    },
  };
  return e2e;
}

/** The hub's tabId of `page` once the plugin is ready there (matched by URL). */
export async function readyTabId(e2e: E2E, page: Page, url = page.url()): Promise<number> {
  const detail = await e2e.waitForTabState(
    "ready",
    (d) => d.tabs.some((t) => t.url === url && t.ready),
  );
  return detail.tabs.find((t) => t.url === url && t.ready)!.tabId;
}

/** Waits until /health says the extension is connected. */
export async function waitForExtension(e2e: E2E): Promise<void> {
  await eventually(
    async () => (await health(e2e.hub)).extensionConnected,
    () => `the extension never connected; hub output:\n${e2e.hub.output()}`,
  );
}

/** `POST /tools/:name/call` with `{ arguments }`. */
/** The playwright page showing `url` (a tab the extension opened). */
export async function pageAt(e2e: E2E, url: string): Promise<Page> {
  let page: Page | undefined;
  await eventually(
    () => Promise.resolve(!!(page = e2e.browser.context.pages().find((p) => p.url() === url))),
    () => `no page at ${url}: ${e2e.browser.context.pages().map((p) => p.url())}`,
  );
  return page!;
}

export function callTool(e2e: E2E, name: string, args: Record<string, unknown> = {}) {
  return api(e2e.hub, "POST", `/tools/${name}/call`, { arguments: args });
}

/** Marks the running service worker, so `waitForNewWorker` can tell it from its replacement. */
export async function markWorker(e2e: E2E): Promise<void> {
  const worker = await e2e.browser.serviceWorker();
  await worker.evaluate(() => Object.assign(globalThis, { __beforeReload: true }));
}

/** Waits until the running service worker is not the marked one: the extension reloaded. */
export async function waitForNewWorker(e2e: E2E): Promise<void> {
  await eventually(async () => {
    try {
      const worker = await e2e.browser.serviceWorker();
      return !(await worker.evaluate(() => "__beforeReload" in globalThis));
    } catch {
      return false; // the old worker is going away
    }
  }, () => "the service worker was not replaced by the reload");
}

export interface E2EContext {
  e2e: E2E;
  /** An MCP client of `/mcp`, connected once the extension was. */
  mcp: Client;
}

/**
 * One browser test on a fresh `startE2E(options)`: skipped (or, in CI, failed) without Chromium;
 * `fn` runs once the extension is connected, with an MCP client; everything is closed after it.
 * `suite` is the test file's `import.meta.url`, for the line that says it was skipped.
 */
export function e2eTest(
  suite: string,
  name: string,
  options: E2EOptions,
  fn: (t: Deno.TestContext, context: E2EContext) => Promise<void>,
): void {
  const gate = browserGate(suite);
  Deno.test({
    name,
    ignore: gate.ignore,
    // The browser, hub and clients outlive single steps; the teardown below closes them.
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      gate.check();
      const e2e = await startE2E(options);
      let mcp: Client | undefined;
      try {
        await waitForExtension(e2e);
        mcp = await connectMcp(e2e.hub.url, e2e.hub.secret);
        await fn(t, { e2e, mcp });
      } finally {
        await mcp?.close().catch(() => {});
        await e2e.close();
      }
    },
  });
}
