/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { createExtensionLog } from "../extension_log.ts";
import { fakeMethodContext } from "../_test_fixtures.ts";
import { createDebuggerSessions } from "../debugger_sessions.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { extensionLogs, MAX_MESSAGE_CHARS } from "./extension_logs.ts";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function withLog() {
  let now = Date.UTC(2025, 0, 2, 3, 4, 5);
  const log = createExtensionLog({ console: quiet, clock: () => now++ });
  const context: MethodContext = {
    ...fakeMethodContext(),
    sessions: createDebuggerSessions(),
    log,
    state: () => {
      throw new Error("not used");
    },
    reload() {},
  };
  return { log, context };
}

Deno.test("extension.logs: oldest first, ISO times, minimum level and limit", async () => {
  const { log, context } = withLog();
  log.debug("one");
  log.info("two");
  log.warn("three");
  log.error("four");
  assertEquals(await extensionLogs(parsedInput("extension.logs", {}), context), {
    entries: [
      { time: "2025-01-02T03:04:05.000Z", level: "debug", message: "one" },
      { time: "2025-01-02T03:04:05.001Z", level: "info", message: "two" },
      { time: "2025-01-02T03:04:05.002Z", level: "warn", message: "three" },
      { time: "2025-01-02T03:04:05.003Z", level: "error", message: "four" },
    ],
  });
  const warn = await extensionLogs(parsedInput("extension.logs", { level: "warn" }), context) as {
    entries: { message: string }[];
  };
  assertEquals(warn.entries.map((e) => e.message), ["three", "four"]);
  const last = await extensionLogs(parsedInput("extension.logs", { limit: 2 }), context) as {
    entries: { message: string }[];
  };
  assertEquals(last.entries.map((e) => e.message), ["three", "four"]);
  const info1 = await extensionLogs(
    parsedInput("extension.logs", { level: "info", limit: 1 }),
    context,
  ) as {
    entries: { message: string }[];
  };
  assertEquals(info1.entries.map((e) => e.message), ["four"]);
});

Deno.test("extension.logs: a long message is cut with a marker", async () => {
  const { log, context } = withLog();
  log.info("x".repeat(MAX_MESSAGE_CHARS + 100));
  const { entries } = await extensionLogs(parsedInput("extension.logs", {}), context) as {
    entries: { message: string }[];
  };
  assertEquals(entries[0].message.startsWith("x".repeat(MAX_MESSAGE_CHARS)), true);
  assertMatch(entries[0].message, /…\[truncated: showed 2000 of 2100 characters/);
});
