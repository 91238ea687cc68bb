import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { PluginLogEntry } from "../../protocol/events.ts";
import { silentLogger } from "../log/logger.ts";
import type { Logger } from "../log/logger_interface.ts";
import {
  createPluginLogs,
  DROP_REPORT_MS,
  HUB_DROP_NOTE_MS,
  PLUGIN_LOG_BUFFER,
  PLUGIN_LOG_ENTRY_MAX_CHARS,
  PLUGIN_LOG_MAX_PLUGINS,
  PLUGIN_LOG_RING_MAX_CHARS,
} from "./plugin_logs.ts";

const unlimited = {
  perTab: { perSecond: 1e9, burst: 1e9 },
  perPlugin: { perSecond: 1e9, burst: 1e9 },
  total: { perSecond: 1e9, burst: 1e9 },
};
const limits = {
  perTab: { perSecond: 1, burst: 3 },
  perPlugin: { perSecond: 2, burst: 5 },
  total: { perSecond: 100, burst: 100 },
};

/** A logger that keeps its lines as "LEVEL message". */
function recording(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
  return { lines, debug: at("DEBUG"), info: at("INFO"), warn: at("WARN"), error: at("ERROR") };
}

const info = (message: string, data?: unknown): PluginLogEntry => ({
  level: "info",
  message,
  ...(data === undefined ? {} : { data }),
});

Deno.test("entries are kept per plugin, newest last, and handed to listeners", () => {
  const logs = createPluginLogs(silentLogger);
  const heard: string[] = [];
  logs.onEntry((plugin, entry) => heard.push(`${plugin}:${entry.message}`));
  logs.add("a", [info("one"), info("two", { n: 2 })]);
  assertEquals(logs.recent("a"), [info("one"), info("two", { n: 2 })]);
  assertEquals(logs.size("b"), 0);
  assertEquals(heard, ["a:one", "a:two"]);
});

Deno.test("a ring keeps the newest entries up to its capacity", () => {
  const logs = createPluginLogs(silentLogger, { limits: unlimited });
  logs.add("a", Array.from({ length: PLUGIN_LOG_BUFFER + 5 }, (_, i) => info(`m${i}`)));
  assertEquals(logs.size("a"), PLUGIN_LOG_BUFFER);
  assertEquals(logs.recent("a")[0].message, "m5");
});

Deno.test("huge messages and data are cut, and a ring stays under its byte bound", () => {
  const lines: string[] = [];
  const logger = { ...silentLogger, info: (m: string) => void lines.push(m) };
  const logs = createPluginLogs(logger);
  const huge = "z".repeat(1_000_000);
  logs.add("a", Array.from({ length: 150 }, () => info(huge, { huge })));
  const kept = logs.recent("a");
  for (const entry of kept) {
    assertEquals(entry.message.length, PLUGIN_LOG_ENTRY_MAX_CHARS);
    assert(typeof entry.data === "string" && entry.data.length <= PLUGIN_LOG_ENTRY_MAX_CHARS);
  }
  const chars = kept.reduce((n, e) => n + e.message.length + String(e.data).length, 0);
  assert(chars <= PLUGIN_LOG_RING_MAX_CHARS, `${chars} characters in the ring`);
  assert(lines.every((l) => l.length < 3 * PLUGIN_LOG_ENTRY_MAX_CHARS));
});

Deno.test("only so many plugins keep a ring; the least recently logging one gives way", () => {
  const logs = createPluginLogs(silentLogger);
  for (let i = 0; i <= PLUGIN_LOG_MAX_PLUGINS; i++) logs.add(`p${i}`, [info("x")]);
  assertEquals(logs.size("p0"), 0);
  assertEquals(logs.size(`p${PLUGIN_LOG_MAX_PLUGINS}`), 1);
  assertEquals(logs.size("p1"), 1);
});

Deno.test("entries over the limit are dropped from the file, the ring and the listeners, and counted in one line", () => {
  const plugins = recording();
  const hub = recording();
  let now = 1_000_000;
  const logs = createPluginLogs(plugins, { limits, hubLogger: hub, clock: () => now });
  const heard: string[] = [];
  logs.onEntry((plugin, entry) => heard.push(`${plugin}:${entry.level}:${entry.message}`));
  try {
    logs.add("x", Array.from({ length: 10 }, (_, i) => info(`m${i}`)), 7);
    assertEquals(logs.size("x"), 3, "the burst of one tab");
    assertEquals(heard, ["x:info:m0", "x:info:m1", "x:info:m2"]);
    logs.add("x", [info("other tab 1"), info("other tab 2"), info("other tab 3")], 8);
    assertEquals(logs.size("x"), 5, "the plugin's burst over all its tabs");
    assertEquals(plugins.lines.length, 5);
    assertEquals(hub.lines, [], "nothing in server.log yet");
    now += 3_000;
    logs.close(); // reports now instead of after DROP_REPORT_MS
    const dropLine = plugins.lines.at(-1)!;
    assertEquals(
      dropLine.split(" (limits:")[0],
      "WARN [plugin:x] dropped 8 log lines from plugin x in tabs 7 (7), 8 (1) in the last 3 s",
    );
    assert(dropLine.includes("1 a second per plugin in one tab (bursts of 3)"), dropLine);
    assert(heard.at(-1)!.startsWith("x:warn:hub: dropped 8 log lines"), heard.at(-1));
    assertEquals(hub.lines.length, 1);
    assert(hub.lines[0].startsWith("WARN Plugin log lines over the rate limit were dropped"));
    assert(hub.lines[0].includes("8 from plugin x"), hub.lines[0]);
  } finally {
    logs.close();
  }
});

Deno.test("the buckets fill up again with time", () => {
  let now = 0;
  const logs = createPluginLogs(silentLogger, { limits, clock: () => now });
  try {
    logs.add("x", Array.from({ length: 5 }, () => info("a")), 1);
    assertEquals(logs.size("x"), 3);
    now += 2_000; // two more for the tab, four for the plugin
    logs.add("x", Array.from({ length: 5 }, () => info("b")), 1);
    assertEquals(logs.size("x"), 5);
  } finally {
    logs.close();
  }
});

Deno.test("drops are reported by a timer, and server.log hears at most once in HUB_DROP_NOTE_MS", async () => {
  const plugins = recording();
  const hub = recording();
  let now = 0;
  const logs = createPluginLogs(plugins, {
    limits,
    hubLogger: hub,
    clock: () => now,
    reportMs: 20,
  });
  try {
    logs.add("x", Array.from({ length: 10 }, () => info("flood")), 1);
    await new Promise((r) => setTimeout(r, 100));
    assert(plugins.lines.at(-1)!.includes("dropped 7 log lines from plugin x in tab 1"));
    assertEquals(hub.lines.length, 1, "the first drops are noted at once");
    now += 60_000;
    logs.add("x", Array.from({ length: 10 }, () => info("flood")), 1);
    await new Promise((r) => setTimeout(r, 100));
    assert(plugins.lines.at(-1)!.includes("dropped"));
    assertEquals(hub.lines.length, 1, "not yet: the counts wait for the next note");
    now += HUB_DROP_NOTE_MS;
    logs.add("x", Array.from({ length: 10 }, () => info("flood")), 1);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(hub.lines.length, 2);
    assert(hub.lines[1].includes("from plugin x"), hub.lines[1]);
    assert(DROP_REPORT_MS >= 1_000, "the real report interval is not a busy loop");
  } finally {
    logs.close();
  }
});
