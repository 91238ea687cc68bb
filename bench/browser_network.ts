/**
 * What recording network requests (extension/src/worker/network_log.ts) costs calls (issue 30:
 * "no measurable cost"). The recorder cannot be switched off at run time (its chrome.webRequest
 * listeners are registered once, at the worker's top level), so the rows compare what varies its
 * work: the same browser round trip (`test-app__echo`, client → hub → worker → page → back) with
 * no request being recorded, and while another tab makes requests as fast as it can, every one
 * recorded by the worker that also runs the calls. Decision 067 compares both rows with a build
 * without the listeners. The recorder's own time per request is
 * extension/src/worker/network_log_bench.ts (`deno bench`).
 */
import { measure, printTable, type Row } from "./_stats.ts";
import { browserBenchGate } from "./_browser_gate.ts";
import { startE2E, waitForExtension } from "../tests/helpers/e2e_fixture.ts";
import { echoCallers } from "./_perf_browser.ts";

const CALLS = 500;
const PARALLEL_FETCHES = 8;

browserBenchGate("browser network recording");

const e2e = await startE2E();
try {
  await waitForExtension(e2e);
  await e2e.open("/");
  await e2e.waitForTabState("ready");
  const { rest, close } = await echoCallers(e2e.hub);
  const quiet = await measure(rest, CALLS, 200);

  const busy = await e2e.open("/net/page");
  await busy.evaluate(`
    window.__fetched = 0;
    window.__stop = false;
    for (let lane = 0; lane < ${PARALLEL_FETCHES}; lane++) {
      (async () => {
        while (!window.__stop) {
          await fetch("/api/status/200", { cache: "no-store" }).then((r) => r.text());
          window.__fetched++;
        }
      })();
    }
    0; // the completion value: not one of the loops' promises, which never settle`);
  const began = performance.now();
  const start = await busy.evaluate("window.__fetched") as number;
  const loaded = await measure(rest, CALLS, 200);
  const fetched = (await busy.evaluate("window.__fetched") as number) - start;
  const rate = Math.round(fetched / ((performance.now() - began) / 1000));
  await busy.evaluate("window.__stop = true");
  await close();

  const rows: Row[] = [
    ["browser round trip, REST, no request recorded", quiet, 1],
    [`browser round trip, REST, another tab making ${rate} recorded requests/s`, loaded, 1],
  ];
  printTable(rows);
} finally {
  await e2e.close();
}
