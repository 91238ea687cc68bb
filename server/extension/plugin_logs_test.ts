import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { PluginLogEntry } from "../../protocol/events.ts";
import { silentLogger } from "../log/logger.ts";
import {
  createPluginLogs,
  PLUGIN_LOG_BUFFER,
  PLUGIN_LOG_ENTRY_MAX_CHARS,
  PLUGIN_LOG_MAX_PLUGINS,
  PLUGIN_LOG_RING_MAX_CHARS,
} from "./plugin_logs.ts";

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
  const logs = createPluginLogs(silentLogger);
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
