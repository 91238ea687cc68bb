/// <reference lib="deno.ns" />
/**
 * page.console with a fake `chrome.debugger` that replays console messages on Runtime.enable the
 * way V8 does: levels, limit, clear, uncaught errors and rejections, other frames left out, and
 * the shared session left as it was found (Runtime and Debugger disabled again).
 */
import { assert, assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, type FakeDebugger, fakeDebugger, withChrome } from "../_test_fixtures.ts";
import { createTabCalls } from "../tab_calls.ts";
import { createDebuggerSessions } from "../debugger_sessions.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { fitEntries, levelRank, MAX_ANSWER_CHARS, pageConsole } from "./page_console.ts";
import { CONSOLE_LEVELS } from "../../../../protocol/browser_methods/page.ts";
import type { ConsoleEntry } from "./console_entries.ts";

const context = {
  calls: createTabCalls(),
  sessions: createDebuggerSessions({ log: { info() {}, warn() {} } }),
} as MethodContext;

type Event = [string, Record<string, unknown>];
const MAIN = "frame-main";

const log = (type: string, time: number, ...args: unknown[]): Event => [
  "Runtime.consoleAPICalled",
  {
    type,
    timestamp: time,
    executionContextId: 1,
    args: args.map((value) =>
      typeof value === "object"
        ? { type: "object", objectId: `o-${time}` }
        : { type: typeof value, value }
    ),
  },
];

function sample(): Event[] {
  return [
    ["Runtime.executionContextCreated", {
      context: { id: 1, auxData: { isDefault: true, frameId: MAIN } },
    }],
    ["Runtime.executionContextCreated", {
      context: { id: 2, auxData: { isDefault: true, frameId: "frame-child" } },
    }],
    ["Runtime.executionContextCreated", {
      context: { id: 3, auxData: { isDefault: false, frameId: MAIN } },
    }],
    log("debug", 0, "d"),
    log("log", 1000, "l %s", "x"),
    log("info", 2000, "i"),
    log("warning", 3000, "w"),
    log("table", 3500, "not recorded"),
    ["Runtime.consoleAPICalled", { type: "log", timestamp: 1, executionContextId: 2, args: [] }],
    ["Runtime.consoleAPICalled", { type: "log", timestamp: 1, executionContextId: 3, args: [] }],
    ["Runtime.exceptionThrown", {
      timestamp: 4000,
      exceptionDetails: {
        text: "Uncaught",
        executionContextId: 1,
        exception: { type: "object", description: "Error: e\n    at x" },
      },
    }],
    ["Runtime.exceptionThrown", {
      timestamp: 5000,
      exceptionDetails: {
        text: "Uncaught (in promise)",
        executionContextId: 1,
        exception: { type: "object", description: "Error: r" },
      },
    }],
    log("error", 6000, "with object", {}),
  ];
}

async function withDebugger(
  url: string,
  events: Event[],
  body: (fake: FakeDebugger) => Promise<void>,
) {
  const fake: FakeDebugger = { commands: [], attached: false };
  await withChrome({
    tabs: { get: (tabId: number) => Promise.resolve({ id: tabId, url }) },
    debugger: fakeDebugger(
      fake,
      MAIN,
      events,
      (method) =>
        method === "Runtime.callFunctionOn"
          ? Promise.resolve({ result: { value: 'with object {"formatted": true}' } })
          : undefined,
    ),
  }, async () => {
    try {
      await body(fake);
    } finally {
      await context.sessions.detachAll();
    }
    assertEquals(fake.attached, false);
  });
}

type Answer = {
  entries: { time: string; level: string; text: string; source?: string }[];
  total: number;
  dropped: number;
  note?: string;
};

const read = async (input: Record<string, unknown> = {}) =>
  await pageConsole(parsedInput("page.console", { tabId: 4, ...input }), context) as
    & Answer
    & Record<string, unknown>;

Deno.test("the top frame's messages and errors, oldest first, with ISO times; Runtime off after", async () => {
  await withDebugger("https://example.com/", sample(), async (fake) => {
    const value = await read();
    assertEquals([value.tabId, value.url, value.total, value.dropped], [
      4,
      "https://example.com/",
      7,
      0,
    ]);
    assertEquals(value.entries.map((e) => [e.level, e.text, e.source]), [
      ["debug", "d", undefined],
      ["log", "l x", undefined],
      ["info", "i", undefined],
      ["warn", "w", undefined],
      ["error", "Uncaught Error: e\n    at x", "uncaught"],
      ["error", "Uncaught (in promise) Error: r", "unhandledrejection"],
      ["error", 'with object {"formatted": true}', undefined],
    ]);
    assertEquals(value.entries[1].time, "1970-01-01T00:00:01.000Z");
    assertEquals(value.note, undefined);
    assertEquals(fake.commands.slice(-2), ["Debugger.disable", "Runtime.disable"]);
    assert(!fake.commands.includes("Runtime.discardConsoleEntries"));
  });
});

Deno.test("level is a minimum (log counts as info); limit keeps the newest; clear discards", async () => {
  await withDebugger("https://example.com/", sample(), async (fake) => {
    assertEquals((await read({ level: "warn" })).entries.length, 4);
    const info = await read({ level: "info" });
    assertEquals(info.entries.map((e) => e.level).slice(0, 2), ["log", "info"]);
    const last = await read({ limit: 2 });
    assertEquals(last.entries.map((e) => e.source), ["unhandledrejection", undefined]);
    assertMatch(last.note!, /newest 2 of 7/);
    await read({ clear: true });
    assertEquals(fake.commands.slice(-3), [
      "Runtime.discardConsoleEntries",
      "Debugger.disable",
      "Runtime.disable",
    ]);
  });
});

Deno.test("a tab without a web page is NOT_A_WEB_PAGE, without attaching", async () => {
  await withDebugger("about:blank", sample(), async (fake) => {
    const failed = await failureOf(pageConsole(parsedInput("page.console", { tabId: 4 }), context));
    assertEquals(failed.payload.code, "NOT_A_WEB_PAGE");
    assertEquals(fake.commands, []);
  });
});

const entry = (time: number, level: ConsoleEntry["level"], text: string): ConsoleEntry => ({
  time,
  level,
  text,
});

Deno.test("fitEntries keeps the newest entries whose texts fit the budget", () => {
  const entries = [entry(1, "log", "aaaa"), entry(2, "log", "bbb"), entry(3, "log", "cc")];
  assertEquals(fitEntries(entries, 5).map((e) => e.text), ["bbb", "cc"]);
  assertEquals(fitEntries(entries, 4).map((e) => e.text), ["cc"]);
  assertEquals(fitEntries(entries, 9).map((e) => e.text), ["aaaa", "bbb", "cc"]);
  assertEquals(fitEntries(entries, 1), []);
  const many = Array.from({ length: 100 }, (_, i) => entry(i, "log", "x".repeat(2000)));
  const fitted = fitEntries(many);
  assertEquals(fitted.length, MAX_ANSWER_CHARS / 2000);
  assert(fitted.at(-1) === many.at(-1));
});

Deno.test("level ranks follow LOG_LEVELS, with console.log counted as info", () => {
  assertEquals(
    CONSOLE_LEVELS.map((level) => [level, levelRank(level)]),
    [["debug", 0], ["log", 1], ["info", 1], ["warn", 2], ["error", 3]],
  );
});
