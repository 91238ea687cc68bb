/**
 * The real-browser round trip (`deno task bench` runs this after call_latency.ts): the hub started
 * with `hub start`, Debian Chromium with the installed extension, the test web app and the test
 * plugin. Each call goes client → hub → WebSocket → service worker → the page's MAIN world
 * (`test-app__echo`) → back. Sequential rows time one call at a time; the in-flight rows keep 25
 * calls running until 5,000 finished (latency per call, throughput over the run). Targets
 * (2-core build machine): p50 ≤ 3 ms sequential, ≥ 1,500 calls/s with 25 in flight.
 */
import { measure, measureInFlight, printTable, type Row } from "./_stats.ts";
import { browserBenchGate } from "./_browser_gate.ts";
import { startE2E, waitForExtension } from "../tests/helpers/e2e_fixture.ts";
import { echoCallers } from "./_perf_browser.ts";

const SEQUENTIAL = 1000;
const IN_FLIGHT = 25;
const IN_FLIGHT_CALLS = 5000;

browserBenchGate("browser round trip");

const e2e = await startE2E();
try {
  await waitForExtension(e2e);
  await e2e.open("/");
  await e2e.waitForTabState("ready");
  const { rest, viaMcp, close } = await echoCallers(e2e.hub);
  const steady = async (name: string, run: () => Promise<unknown>): Promise<Row> => {
    const { samples, rate } = await measureInFlight(run, IN_FLIGHT, IN_FLIGHT_CALLS);
    return [name, samples, { rate }];
  };
  const rows: Row[] = [
    ["browser round trip, REST, sequential", await measure(rest, SEQUENTIAL, 200), 1],
    ["browser round trip, MCP, sequential", await measure(viaMcp, SEQUENTIAL, 200), 1],
    await steady(`browser round trip, REST, ${IN_FLIGHT} in flight (per call)`, rest),
    await steady(`browser round trip, MCP, ${IN_FLIGHT} in flight (per call)`, viaMcp),
  ];
  await close();

  printTable(rows);
} finally {
  await e2e.close();
}
