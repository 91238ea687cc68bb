/** `extension.logs` (extension_get_logs): the extension's own log, newest last. */
import { LOG_LEVELS, type LogEntry, type LogLevel } from "../extension_log.ts";
import type { BrowserMethod } from "./browser_method.ts";
import { capText } from "../../../../protocol/text_cap.ts";

export const DEFAULT_LOG_LIMIT = 100;
/** One entry's message is cut after this many characters. */
export const MAX_MESSAGE_CHARS = 2_000;

export function logView(entries: LogEntry[]) {
  return {
    entries: entries.map((e) => ({
      time: new Date(e.time).toISOString(),
      level: e.level,
      message: capText(e.message, MAX_MESSAGE_CHARS, "The full message is in the worker console.")
        .text,
    })),
  };
}

export const extensionLogs: BrowserMethod = (input, { log }) => {
  const minLevel = LOG_LEVELS.includes(input.level as LogLevel) ? input.level as LogLevel : "debug";
  const limit = typeof input.limit === "number" ? input.limit : DEFAULT_LOG_LIMIT;
  return Promise.resolve(logView(log.entries({ minLevel, limit })));
};
