/**
 * The extension's own log: what the service worker did and what went wrong (connection changes,
 * failed injections, refused messages). Kept in a ring of the last 500 entries for
 * `extension_get_logs` and the side panel, and mirrored to the worker's console. Each kept entry
 * is cut to LOG_ENTRY_MAX_CHARS (a page or a hub message may be huge), so the ring is bounded in
 * bytes as well as in entries; the console gets the whole message.
 */

import { LOG_LEVELS, type LogLevel } from "../../../protocol/call_contract.ts";

export { LOG_LEVELS, type LogLevel };

export interface LogEntry {
  /** Milliseconds since epoch. */
  time: number;
  level: LogLevel;
  message: string;
}

export const LOG_LIMIT = 500;
/** Characters kept of one entry's message. */
export const LOG_ENTRY_MAX_CHARS = 4_000;

export interface ExtensionLog {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
  /** Oldest first; only entries at `minLevel` or above, at most the last `limit`. */
  entries(options?: { minLevel?: LogLevel; limit?: number }): LogEntry[];
}

function describe(detail: unknown): string {
  if (detail === undefined) return "";
  if (detail instanceof Error) return `: ${detail.message}`;
  if (typeof detail === "string") return `: ${detail}`;
  try {
    return `: ${JSON.stringify(detail)}`;
  } catch {
    return `: ${String(detail)}`;
  }
}

export function createExtensionLog(
  options: { limit?: number; clock?: () => number; console?: Pick<Console, LogLevel> } = {},
): ExtensionLog {
  const limit = options.limit ?? LOG_LIMIT;
  const clock = options.clock ?? Date.now;
  const out = options.console ?? console;
  const ring: LogEntry[] = [];

  const add = (level: LogLevel) => (message: string, detail?: unknown) => {
    const full = message + describe(detail);
    const text = full.length <= LOG_ENTRY_MAX_CHARS
      ? full
      : `${full.slice(0, LOG_ENTRY_MAX_CHARS - 1)}…`;
    ring.push({ time: clock(), level, message: text });
    if (ring.length > limit) ring.splice(0, ring.length - limit);
    out[level](`hub: ${full}`);
  };

  return {
    debug: add("debug"),
    info: add("info"),
    warn: add("warn"),
    error: add("error"),
    entries({ minLevel = "debug", limit: max = limit } = {}) {
      const floor = LOG_LEVELS.indexOf(minLevel);
      const kept = ring.filter((e) => LOG_LEVELS.indexOf(e.level) >= floor);
      return kept.slice(Math.max(0, kept.length - max));
    },
  };
}
