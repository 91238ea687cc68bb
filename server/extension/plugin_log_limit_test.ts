import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import {
  createPluginLogLimiter,
  describeLimits,
  MAX_PLUGIN_BUCKETS,
  OTHER_PLUGINS,
  PLUGIN_LOG_LIMITS,
} from "./plugin_log_limit.ts";

const tight = {
  perTab: { perSecond: 1, burst: 2 },
  perPlugin: { perSecond: 1, burst: 4 },
  total: { perSecond: 1, burst: 1_000_000 },
};

/** Admits `n` entries; returns how many passed. */
function admitMany(
  limiter: ReturnType<typeof createPluginLogLimiter>,
  plugin: string,
  tab: number | undefined,
  n: number,
) {
  let passed = 0;
  for (let i = 0; i < n; i++) if (limiter.admit(plugin, tab)) passed++;
  return passed;
}

Deno.test("a flood of 200,000 entries from one tab passes only the burst and the refill", () => {
  const perSecond = 200_000 / 8; // 8 seconds of flood
  let now = 0;
  const limiter = createPluginLogLimiter(PLUGIN_LOG_LIMITS, () => now);
  let passed = 0;
  for (let second = 0; second < 8; second++) {
    passed += admitMany(limiter, "x", 7, perSecond);
    now += 1_000;
  }
  const tab = PLUGIN_LOG_LIMITS.perTab;
  assert(passed <= tab.burst + 8 * tab.perSecond, `${passed} passed`);
  const [report] = limiter.report();
  assertEquals(report.plugin, "x");
  assertEquals(report.count, 200_000 - passed);
  assert(report.line.startsWith(`dropped ${report.count.toLocaleString("en-US")} log lines`));
  assert(report.line.includes("from plugin x in tab 7 in the last 8 s"), report.line);
  assert(report.line.endsWith(`(${describeLimits(PLUGIN_LOG_LIMITS)})`), report.line);
  assertEquals(limiter.report(), [], "the counts start again after a report");
});

Deno.test("one tab's flood leaves another tab's own allowance, up to the plugin's", () => {
  const limiter = createPluginLogLimiter(tight, () => 0);
  assertEquals(admitMany(limiter, "x", 1, 10), 2);
  assertEquals(admitMany(limiter, "x", 2, 10), 2);
  assertEquals(admitMany(limiter, "x", 3, 10), 0, "the plugin's burst of 4 is used up");
  assertEquals(admitMany(limiter, "y", 3, 10), 2, "another plugin has its own");
  const lines = Object.fromEntries(limiter.report().map((r) => [r.plugin, r.line]));
  assert(lines.x.includes("in tabs 3 (10), 1 (8), 2 (8) in the last"), lines.x);
  assert(lines.y.includes("in tab 3 in the last"), lines.y);
});

Deno.test("entries without a tab share one bucket, named as such", () => {
  const limiter = createPluginLogLimiter(tight, () => 0);
  assertEquals(admitMany(limiter, "x", undefined, 5), 2);
  assert(limiter.report()[0].line.includes("in tab (not named)"));
});

Deno.test("drops of plugins beyond the bound are counted together; tabs beyond five are summed up", () => {
  const limiter = createPluginLogLimiter({ ...tight, perTab: { perSecond: 0, burst: 0 } }, () => 0);
  for (let i = 0; i < MAX_PLUGIN_BUCKETS + 10; i++) limiter.admit(`p${i}`, 1);
  for (let tab = 0; tab < 8; tab++) limiter.admit("p0", tab);
  const reports = limiter.report();
  assertEquals(reports.length, MAX_PLUGIN_BUCKETS + 1);
  assertEquals(reports.find((r) => r.plugin === OTHER_PLUGINS)?.count, 10);
  const p0 = reports.find((r) => r.plugin === "p0")!;
  assertEquals(p0.count, 9);
  assert(p0.line.includes("and more tabs"), p0.line);
});
