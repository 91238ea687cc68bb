/**
 * The real-Chromium rows of the performance table, on the setup of bench/browser_round_trip.ts:
 * the checkout's own end-to-end fixture (tests/helpers/e2e_fixture.ts: its hub started with
 * `hub start`, Debian Chromium with the extension installed into that hub's config dir, the test
 * web app and the test plugin). Calls `test-app__echo` in the page: sequential p50 and calls/s
 * with 25 in flight, over REST and MCP.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { measure, measureInFlight, percentiles } from "./_stats.ts";
import { connectMcp } from "./_perf_loopback.ts";

const SEQUENTIAL = 500;
const IN_FLIGHT = 25;
const IN_FLIGHT_CALLS = 4000;

export interface BrowserResults {
  restRate: number;
  mcpRate: number;
  restP50: number;
  mcpP50: number;
}

/** The Chromium the browser rows use, as the browser tests choose it. */
export function chromiumPath(): string {
  return Deno.env.get("HUB_TEST_CHROMIUM") || "/usr/lib/chromium/chromium";
}

/** The rows, or the reason they were skipped. */
export async function browserRows(root: string): Promise<BrowserResults | string> {
  if (!existsSync(chromiumPath())) {
    return `skipped: no Chromium at ${chromiumPath()} (install "chromium" or set HUB_TEST_CHROMIUM)`;
  }
  const fixture = await import(join(root, "tests/helpers/e2e_fixture.ts"));
  const e2e = await fixture.startE2E();
  try {
    await fixture.waitForExtension(e2e);
    await e2e.open("/");
    await e2e.waitForTabState("ready");
    const { url, secret } = e2e.hub;
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const body = JSON.stringify({ arguments: { text: "x" } });
    const rest = async () => {
      const res = await fetch(`${url}/tools/test-app__echo/call`, {
        method: "POST",
        headers,
        body,
      });
      if (res.status !== 200) throw new Error(`call failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const mcp = await connectMcp(url, secret);
    const viaMcp = async () => {
      const result = await mcp.callTool({ name: "test-app__echo", arguments: { text: "x" } });
      if (result.isError) throw new Error(`call failed: ${JSON.stringify(result).slice(0, 500)}`);
    };
    try {
      const restP50 = percentiles(await measure(rest, SEQUENTIAL, 100)).p50;
      const mcpP50 = percentiles(await measure(viaMcp, SEQUENTIAL, 100)).p50;
      const restRate = (await measureInFlight(rest, IN_FLIGHT, IN_FLIGHT_CALLS, 100)).rate;
      const mcpRate = (await measureInFlight(viaMcp, IN_FLIGHT, IN_FLIGHT_CALLS, 100)).rate;
      return { restRate, mcpRate, restP50, mcpP50 };
    } finally {
      await mcp.close().catch(() => {});
    }
  } finally {
    await e2e.close();
  }
}
