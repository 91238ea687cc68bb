/**
 * `page.console` (browser_get_console_logs): the console messages, uncaught errors and unhandled
 * rejections of a tab's top frame, as Chromium's V8 keeps them for the document (its last 1000),
 * read through the tab's debugger session while the tool runs (console_debugger.ts). Nothing of
 * the extension is in the page: no recorder, no global, no wrapped console.
 */
import type { BrowserResult } from "../../../../protocol/browser_methods/mod.ts";
import { type BrowserMethod, webPageTab } from "./browser_method.ts";
import type { ConsoleEntry } from "./console_entries.ts";
import type { ConsoleLevel } from "../../../../protocol/browser_methods/page.ts";
import { LOG_LEVELS, type LogLevel } from "../../../../protocol/call_contract.ts";
import { readConsole } from "./console_debugger.ts";

/** A level's rank for the filter: its place in LOG_LEVELS; `log` counts as `info`, as in DevTools. */
export function levelRank(level: ConsoleLevel | LogLevel): number {
  return LOG_LEVELS.indexOf(level === "log" ? "info" : level);
}
/** The most characters of entry text one answer carries; older entries beyond it are left out. */
export const MAX_ANSWER_CHARS = 100_000;

/** The newest entries whose texts fit in `budget` characters, oldest first. */
export function fitEntries(entries: ConsoleEntry[], budget = MAX_ANSWER_CHARS): ConsoleEntry[] {
  let used = 0;
  let first = entries.length;
  while (first > 0 && used + entries[first - 1].text.length <= budget) {
    used += entries[--first].text.length;
  }
  return entries.slice(first);
}

export const pageConsole: BrowserMethod<"page.console"> = async (input, context) => {
  const { tabId, url } = await webPageTab(
    input,
    "; console messages are recorded only on http(s) pages. Navigate the tab to a site first.",
  );
  const minRank = levelRank(input.level);
  const query = {
    keep: (level: ConsoleLevel) => levelRank(level) >= minRank,
    limit: input.limit,
    clear: input.clear,
  };
  const read = await context.calls.run(
    tabId,
    "browser_get_console_logs",
    () => readConsole(context.sessions, tabId, query),
  );
  return answer(tabId, url, read.entries, read.total);
};

function answer(
  tabId: number,
  url: string,
  read: ConsoleEntry[],
  total: number,
): BrowserResult<"page.console"> {
  const entries = fitEntries(read).map((e) => ({
    ...e,
    time: new Date(Number.isFinite(e.time) ? e.time : 0).toISOString(),
  }));
  // V8 drops its oldest messages past 1000 without counting them.
  const result: BrowserResult<"page.console"> = { tabId, url, entries, total, dropped: 0 };
  if (entries.length < total) {
    result.note = `Showing the newest ${entries.length} of ${total} matching entries. ` +
      (entries.length < read.length
        ? `The older ones did not fit in one answer (${MAX_ANSWER_CHARS} characters of ` +
          "text); pass a higher level to narrow them down."
        : "Pass a larger limit (at most 1000) to see more.");
  }
  return result;
}
