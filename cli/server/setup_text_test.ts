import { assert, assertMatch } from "../../tests/helpers/assert.ts";
import { hubPaths } from "../../core/config/paths.ts";
import { telemetryDecision } from "../../core/telemetry/decision.ts";
import { firstRunText } from "./setup_text.ts";

Deno.test("the first run says whether telemetry is on, what it collects and how to turn it off", () => {
  const paths = hubPaths("/tmp/hub-x");
  const on = firstRunText(paths, true, telemetryDecision(true, {}));
  assertMatch(on, /Anonymous telemetry is on: hub version, OS, runtime, plugin and call counts/);
  assertMatch(on, /never your\ntools' arguments, results, URLs, names or paths/);
  assertMatch(on, /"hub telemetry disable" \(or set DO_NOT_TRACK=1\)/);
  const off = firstRunText(paths, true, telemetryDecision(true, { DO_NOT_TRACK: "1" }));
  assertMatch(off, /Anonymous telemetry is off \(DO_NOT_TRACK=1 is set\)\./);
  assert(!firstRunText(paths, true).includes("telemetry"));
});
