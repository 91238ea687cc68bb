/**
 * `log.debug/info/warn/error`: plugin log entries. They are mirrored to the page console and sent
 * to the extension in batches (every 250 ms or 50 entries) through the adapter's private outbox
 * (channel.ts); the extension forwards them to the hub's log and to connected MCP clients.
 */
import type { LogEntry, LogLevel } from "../protocol/adapter.ts";
import { postPageEvent, toJsonSafe } from "./channel.ts";
import { pluginState } from "./_state.ts";

export const LOG_FLUSH_MS = 250;
export const LOG_BATCH_SIZE = 50;
const MAX_MESSAGE = 4_000;

let buffer: LogEntry[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** Sends buffered entries now. */
export function flushLogs(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (buffer.length === 0) return;
  const entries = buffer;
  buffer = [];
  postPageEvent({ kind: "log", entries });
}

function write(level: LogLevel, message: string, data?: unknown): void {
  const text = String(message);
  const entry: LogEntry = {
    level,
    message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}… [truncated]` : text,
    timestamp: Date.now(),
  };
  const safe = toJsonSafe(data);
  if (safe !== undefined) entry.data = safe;
  const prefix = `[hub:${pluginState.name || "plugin"}]`;
  const args = safe === undefined ? [prefix, entry.message] : [prefix, entry.message, safe];
  console[level](...args);
  buffer.push(entry);
  if (buffer.length >= LOG_BATCH_SIZE) flushLogs();
  else if (timer === undefined) timer = setTimeout(flushLogs, LOG_FLUSH_MS);
}

export const log = {
  debug: (message: string, data?: unknown) => write("debug", message, data),
  info: (message: string, data?: unknown) => write("info", message, data),
  warn: (message: string, data?: unknown) => write("warn", message, data),
  error: (message: string, data?: unknown) => write("error", message, data),
};
export type Log = typeof log;
