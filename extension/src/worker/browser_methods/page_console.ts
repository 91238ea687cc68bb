/**
 * `page.console` (browser_get_console_logs): the console messages, uncaught errors and unhandled
 * rejections of a tab's page, read from the buffer the `console_capture.js` content script keeps
 * in the page (see page/console_recorder.ts). Only messages since the page loaded are there, and
 * only for pages loaded after the extension was installed or reloaded.
 */
import type { BrowserResult } from "../../../../protocol/browser_methods/mod.ts";
import { type BrowserMethod, firstResult, webPageTab } from "./browser_method.ts";
import {
  CONSOLE_BUFFER_KEY,
  type ConsoleEntry,
  type ConsoleLevel,
} from "../../page/console_recorder.ts";
import { MAX_ENTRY_CHARS } from "../../page/console_format.ts";

/** Level filter ranks: `log` counts as `info`, as in DevTools. */
export const LEVEL_RANK: Record<ConsoleLevel, number> = {
  debug: 0,
  log: 1,
  info: 1,
  warn: 2,
  error: 3,
};
/** The most characters of entry text one answer carries; older entries beyond it are left out. */
export const MAX_ANSWER_CHARS = 100_000;

interface Read {
  installed: boolean;
  entries: ConsoleEntry[];
  /** Entries at or above the level, before `limit`. */
  total: number;
  dropped: number;
}

/** Runs in the page's MAIN world; self-contained. Reads (and maybe clears) the buffer. */
function readBuffer(
  key: string,
  ranks: Record<string, number>,
  minRank: number,
  limit: number,
  clear: boolean,
  maxText: number,
): Read {
  try {
    return read();
  } catch {
    return { installed: false, entries: [], total: 0, dropped: 0 };
  }
  function read(): Read {
    const buffer = (globalThis as unknown as Record<symbol, unknown>)[Symbol.for(key)] as {
      entries?: unknown;
      dropped?: unknown;
    } | undefined;
    if (!buffer || !Array.isArray(buffer.entries)) {
      return { installed: false, entries: [], total: 0, dropped: 0 };
    }
    const matching = (buffer.entries as ConsoleEntry[]).filter((e) =>
      e && Object.hasOwn(ranks, e.level) && ranks[e.level] >= minRank
    );
    const entries = matching.slice(Math.max(matching.length - limit, 0)).map((e) => ({
      time: Number(e.time),
      level: e.level,
      text: String(e.text).slice(0, maxText + 100),
      ...(typeof e.source === "string" ? { source: e.source.slice(0, 40) as typeof e.source } : {}),
    }));
    const dropped = Number(buffer.dropped) || 0;
    if (clear) {
      buffer.entries.length = 0;
      buffer.dropped = 0;
    }
    return { installed: true, entries, total: matching.length, dropped };
  }
}

/** The newest entries whose texts fit in `budget` characters, oldest first. */
export function fitEntries(entries: ConsoleEntry[], budget = MAX_ANSWER_CHARS): ConsoleEntry[] {
  let used = 0;
  let first = entries.length;
  while (first > 0 && used + entries[first - 1].text.length <= budget) {
    used += entries[--first].text.length;
  }
  return entries.slice(first);
}

export const pageConsole: BrowserMethod<"page.console"> = async (input, { calls }) => {
  const { tabId, url } = await webPageTab(
    input,
    "; console messages are recorded only on http(s) pages. Navigate the tab to a site first.",
  );
  const read = await calls.run(tabId, "browser_get_console_logs", async () =>
    firstResult<Read>(
      await chrome.scripting.executeScript({
        target: { tabId },
        world: "MAIN",
        func: readBuffer,
        args: [
          CONSOLE_BUFFER_KEY,
          LEVEL_RANK,
          LEVEL_RANK[input.level],
          input.limit,
          input.clear,
          MAX_ENTRY_CHARS,
        ],
      }),
    ));
  return answer(tabId, url, read);
};

function answer(tabId: number, url: string, read: Read | null): BrowserResult<"page.console"> {
  if (!read?.installed) read = { installed: false, entries: [], total: 0, dropped: 0 };
  const entries = fitEntries(read.entries).map((e) => ({
    ...e,
    time: new Date(Number.isFinite(e.time) ? e.time : 0).toISOString(),
  }));
  const result: BrowserResult<"page.console"> = {
    tabId,
    url,
    entries,
    total: read.total,
    dropped: read.dropped,
  };
  if (!read.installed) {
    result.note = "This page has no console recorder: it was loaded before the hub extension was " +
      "installed or reloaded. Reload the page (browser_reload_tab) and the messages from then " +
      "on are recorded.";
  } else if (entries.length < read.total) {
    result.note = `Showing the newest ${entries.length} of ${read.total} matching entries. ` +
      (entries.length < read.entries.length
        ? `The older ones did not fit in one answer (${MAX_ANSWER_CHARS} characters of ` +
          "text); pass a higher level to narrow them down."
        : "Pass a larger limit (at most 1000) to see more.");
  }
  return result;
}
