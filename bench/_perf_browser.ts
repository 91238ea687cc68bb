/**
 * The real-Chromium rows of the performance table, on the setup of bench/browser_round_trip.ts:
 * the checkout's own end-to-end fixture (tests/helpers/e2e_fixture.ts: its hub started with
 * `hub start`, Debian Chromium with the extension installed into that hub's config dir, the test
 * web app and the test plugin). Calls `test-app__echo` in the page: sequential p50 and calls/s
 * with 25 in flight, over REST and MCP. Then the same rows again with Chromium started directly
 * (no Playwright, no DevTools connection): the extension pairs through the secret the hub wrote
 * into its folder and the app page is opened from the command line, as on a user's machine. A
 * DevTools client costs each of the browser, page and extension processes CPU on every call.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { measure, measureInFlight, percentiles } from "./_stats.ts";
import { connectMcp } from "../tests/helpers/mcp_client.ts";
import { CHROMIUM_PATH } from "../tests/helpers/browser_gate.ts";
import { until } from "../tests/helpers/until.ts";

const SEQUENTIAL = 500;
const IN_FLIGHT = 25;
const IN_FLIGHT_CALLS = 4000;

export interface BrowserRates {
  restRate: number;
  mcpRate: number;
  restP50: number;
  mcpP50: number;
}

export interface BrowserResults extends BrowserRates {
  /** The same rows with Chromium started without a DevTools connection (or why not measured). */
  undriven: BrowserRates | string;
}

/** The rows, or the reason they were skipped. */
export async function browserRows(root: string): Promise<BrowserResults | string> {
  if (!existsSync(CHROMIUM_PATH)) {
    return `skipped: no Chromium at ${CHROMIUM_PATH} (install "chromium" or set HUB_TEST_CHROMIUM)`;
  }
  const fixture = await import(join(root, "tests/helpers/e2e_fixture.ts"));
  const e2e = await fixture.startE2E();
  try {
    await fixture.waitForExtension(e2e);
    await e2e.open("/");
    await e2e.waitForTabState("ready");
    const driven = await measureCalls(e2e.hub);
    const { health } = await import(join(root, "tests/helpers/hub_api.ts"));
    const undriven = await undrivenRows({ ...fixture, health }, e2e).catch((e) =>
      `not measured: ${String(e).slice(0, 300)}`
    );
    return { ...driven, undriven };
  } finally {
    await e2e.close();
  }
}

/** `test-app__echo` over REST and over MCP (an SDK client), each throwing on a failed call. */
export async function echoCallers(hub: { url: string; secret: string }) {
  const { url, secret } = hub;
  const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
  const body = JSON.stringify({ arguments: { text: "x" } });
  const rest = async () => {
    const res = await fetch(`${url}/tools/test-app__echo/call`, { method: "POST", headers, body });
    if (res.status !== 200) throw new Error(`call failed: ${res.status} ${await res.text()}`);
    await res.json();
  };
  const mcp = await connectMcp(url, secret);
  const viaMcp = async () => {
    const result = await mcp.callTool({ name: "test-app__echo", arguments: { text: "x" } });
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result).slice(0, 500)}`);
  };
  return { rest, viaMcp, close: () => mcp.close().catch(() => {}) };
}

/** Sequential p50s and rates at 25 in flight of `test-app__echo` over REST and MCP. */
async function measureCalls(hub: { url: string; secret: string }): Promise<BrowserRates> {
  const { rest, viaMcp, close } = await echoCallers(hub);
  try {
    const restP50 = percentiles(await measure(rest, SEQUENTIAL, 100)).p50;
    const mcpP50 = percentiles(await measure(viaMcp, SEQUENTIAL, 100)).p50;
    const restRate = (await measureInFlight(rest, IN_FLIGHT, IN_FLIGHT_CALLS, 100)).rate;
    const mcpRate = (await measureInFlight(viaMcp, IN_FLIGHT, IN_FLIGHT_CALLS, 100)).rate;
    return { restRate, mcpRate, restP50, mcpP50 };
  } finally {
    await close();
  }
}

interface FixtureE2E {
  configDir: string;
  hub: { url: string; secret: string };
  app: { url: string };
  browser: { close(): Promise<void> };
  waitForTabState(state: string): Promise<unknown>;
}

interface Fixture {
  health(hub: FixtureE2E["hub"]): Promise<{ extensionConnected: boolean }>;
  waitForExtension(e2e: FixtureE2E): Promise<void>;
}

/**
 * Closes the Playwright-driven browser, starts Chromium by hand with the same flags, extension and
 * a fresh profile, opening the app's page, and measures the rows once the tab is ready.
 */
async function undrivenRows(fixture: Fixture, e2e: FixtureE2E): Promise<BrowserRates> {
  await e2e.browser.close();
  await until(
    async () => !(await fixture.health(e2e.hub)).extensionConnected,
    "the closed browser to disconnect",
    10_000,
  );
  // This checkout's profile and flags (headless, no sandbox, nothing phoning home): the same for
  // any --root.
  const { extensionArgs, extensionProfile } = await import(
    "../tests/helpers/extension_browser.ts"
  );
  const profile = await extensionProfile("hub-perf-profile-");
  const chromium = new Deno.Command(CHROMIUM_PATH, {
    args: [
      ...extensionArgs(join(e2e.configDir, "extension")),
      `--user-data-dir=${profile}`,
      new URL("/", e2e.app.url).href,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await fixture.waitForExtension(e2e);
    await e2e.waitForTabState("ready");
    return await measureCalls(e2e.hub);
  } finally {
    try {
      chromium.kill("SIGTERM");
    } catch {
      // it already exited; its status says how
    }
    await chromium.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}
