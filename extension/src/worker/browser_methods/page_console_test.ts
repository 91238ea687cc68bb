/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, withChrome } from "../_test_fixtures.ts";
import { createTabCalls } from "../tab_calls.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { fitEntries, MAX_ANSWER_CHARS, pageConsole } from "./page_console.ts";
import {
  CONSOLE_BUFFER_KEY,
  type ConsoleBuffer,
  type ConsoleEntry,
} from "../../page/console_recorder.ts";

const context = { calls: createTabCalls() } as MethodContext;
const KEY = Symbol.for(CONSOLE_BUFFER_KEY);

/** A fake chrome whose executeScript runs the function here, where `buffer` is the page's. */
async function withPage(url: string, buffer: ConsoleBuffer | undefined, body: () => Promise<void>) {
  const global = globalThis as unknown as Record<symbol, unknown>;
  if (buffer) global[KEY] = buffer;
  try {
    await withChrome({
      tabs: { get: (tabId: number) => Promise.resolve({ id: tabId, url }) },
      scripting: {
        executeScript: (details: { func: (...args: unknown[]) => unknown; args: unknown[] }) =>
          Promise.resolve([{ result: structuredClone(details.func(...details.args)) }]),
      },
    }, body);
  } finally {
    delete global[KEY];
  }
}

const entry = (time: number, level: ConsoleEntry["level"], text: string): ConsoleEntry => ({
  time,
  level,
  text,
});

function sample(): ConsoleBuffer {
  return {
    entries: [
      entry(0, "debug", "d"),
      entry(1000, "log", "l"),
      entry(2000, "info", "i"),
      entry(3000, "warn", "w"),
      { ...entry(4000, "error", "Uncaught Error: e"), source: "uncaught" },
    ],
    dropped: 7,
  };
}

type Answer = {
  entries: { time: string; level: string; text: string; source?: string }[];
  total: number;
  dropped: number;
  note?: string;
};

Deno.test("entries come back oldest first with ISO times, dropped and total", async () => {
  await withPage("https://example.com/", sample(), async () => {
    const value = await pageConsole(parsedInput("page.console", { tabId: 4 }), context) as
      & Answer
      & Record<string, unknown>;
    assertEquals(value.tabId, 4);
    assertEquals(value.url, "https://example.com/");
    assertEquals(value.entries.map((e) => e.text), ["d", "l", "i", "w", "Uncaught Error: e"]);
    assertEquals(value.entries[1], { time: "1970-01-01T00:00:01.000Z", level: "log", text: "l" });
    assertEquals(value.entries[4].source, "uncaught");
    assertEquals([value.total, value.dropped, value.note], [5, 7, undefined]);
  });
});

Deno.test("level is a minimum (log counts as info); limit keeps the newest", async () => {
  await withPage("https://example.com/", sample(), async () => {
    const levels = async (input: Record<string, unknown>) =>
      ((await pageConsole(parsedInput("page.console", { tabId: 4, ...input }), context)) as Answer)
        .entries.map((e) => e.level);
    assertEquals(await levels({ level: "info" }), ["log", "info", "warn", "error"]);
    assertEquals(await levels({ level: "warn" }), ["warn", "error"]);
    assertEquals(await levels({ level: "error" }), ["error"]);
    assertEquals(await levels({ limit: 2 }), ["warn", "error"]);
    const limited = await pageConsole(
      parsedInput("page.console", { tabId: 4, limit: 2 }),
      context,
    ) as Answer;
    assertEquals(limited.total, 5);
    assertMatch(limited.note!, /newest 2 of 5 .*larger limit/);
  });
});

Deno.test("clear empties the buffer after reading it", async () => {
  const buffer = sample();
  await withPage("https://example.com/", buffer, async () => {
    const first = await pageConsole(
      parsedInput("page.console", { tabId: 4, level: "error", clear: true }),
      context,
    ) as Answer;
    assertEquals(first.entries.length, 1);
    assertEquals(buffer, { entries: [], dropped: 0 }, "every level is cleared");
    const second = await pageConsole(parsedInput("page.console", { tabId: 4 }), context) as Answer;
    assertEquals([second.entries, second.total, second.dropped], [[], 0, 0]);
  });
});

Deno.test("a page without the recorder gives an empty list and says to reload", async () => {
  await withPage("https://example.com/", undefined, async () => {
    const value = await pageConsole(parsedInput("page.console", { tabId: 4 }), context) as Answer;
    assertEquals(value.entries, []);
    assertMatch(value.note!, /loaded before the hub extension .* Reload the page/);
  });
  // Whatever a page put there instead is ignored.
  await withPage(
    "https://example.com/",
    { entries: "nope" } as unknown as ConsoleBuffer,
    async () => {
      assertMatch(
        (await pageConsole(parsedInput("page.console", { tabId: 4 }), context) as Answer).note!,
        /Reload the page/,
      );
    },
  );
});

Deno.test("a tab without a web page is NOT_A_WEB_PAGE", async () => {
  await withPage("about:blank", sample(), async () => {
    const failed = await failureOf(pageConsole(parsedInput("page.console", { tabId: 4 }), context));
    assertEquals(failed.payload.code, "NOT_A_WEB_PAGE");
  });
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
