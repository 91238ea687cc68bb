/** `extension.logs` (extension_get_logs): the extension's own log, newest last. */
import type { LogEntry } from "../extension_log.ts";
import type { BrowserMethod } from "./browser_method.ts";
import { capText } from "../../../../protocol/text_cap.ts";

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

export const extensionLogs: BrowserMethod<"extension.logs"> = (input, { log }) =>
  Promise.resolve(logView(log.entries({ minLevel: input.level, limit: input.limit })));
