/**
 * Records a page's console into a bounded buffer that browser_get_console_logs reads: the calls
 * of console.log/info/warn/error/debug (the originals still run, unchanged), uncaught errors and
 * unhandled promise rejections. The buffer hangs off the page's global object under
 * `Symbol.for(CONSOLE_BUFFER_KEY)`, where a function the extension runs in the page's MAIN world
 * finds it. Recording never throws into the page.
 */
import { formatArgs } from "./console_format.ts";

/** `Symbol.for(...)` key of the buffer on the page's global object. */
export const CONSOLE_BUFFER_KEY = "hub.consoleBuffer";
/** The most entries a page keeps; older ones are dropped (and counted). */
export const CONSOLE_BUFFER_SIZE = 1000;

export const CONSOLE_LEVELS = ["debug", "log", "info", "warn", "error"] as const;
export type ConsoleLevel = typeof CONSOLE_LEVELS[number];

/** Where an entry came from, when it was not a console call. */
export type ConsoleSource = "uncaught" | "unhandledrejection";

export interface ConsoleEntry {
  /** Milliseconds since the epoch. */
  time: number;
  level: ConsoleLevel;
  text: string;
  source?: ConsoleSource;
}

export interface ConsoleBuffer {
  /** Oldest first. */
  entries: ConsoleEntry[];
  /** Entries pushed out of the full buffer since it was last cleared. */
  dropped: number;
}

/** The part of a page's global object the recorder touches (fakes in tests). */
export interface ConsoleHost {
  console: Partial<Record<ConsoleLevel, (...args: unknown[]) => void>>;
  addEventListener(type: string, listener: (event: unknown) => void): void;
}

export function pushEntry(buffer: ConsoleBuffer, entry: ConsoleEntry, size = CONSOLE_BUFFER_SIZE) {
  buffer.entries.push(entry);
  while (buffer.entries.length > size) {
    buffer.entries.shift();
    buffer.dropped++;
  }
}

/**
 * Installs the recorder on `host` once (a second call finds the buffer and does nothing);
 * returns the buffer.
 */
export function installConsoleRecorder(host: ConsoleHost, now = Date.now): ConsoleBuffer {
  const key = Symbol.for(CONSOLE_BUFFER_KEY);
  const existing = (host as unknown as Record<symbol, ConsoleBuffer>)[key];
  if (existing) return existing;
  const buffer: ConsoleBuffer = { entries: [], dropped: 0 };
  Object.defineProperty(host, key, { value: buffer, configurable: true });
  const record = (level: ConsoleLevel, text: () => string, source?: ConsoleSource) => {
    try {
      pushEntry(buffer, { time: now(), level, text: text(), ...(source ? { source } : {}) });
    } catch {
      // never disturb the page
    }
  };
  for (const level of CONSOLE_LEVELS) wrapConsole(host, level, record);
  host.addEventListener("error", (event) => {
    record("error", () => uncaughtText(event as ErrorEventFields), "uncaught");
  });
  host.addEventListener("unhandledrejection", (event) => {
    const reason = (event as { reason?: unknown }).reason;
    record("error", () => `Uncaught (in promise) ${formatArgs([reason])}`, "unhandledrejection");
  });
  return buffer;
}

function wrapConsole(
  host: ConsoleHost,
  level: ConsoleLevel,
  record: (level: ConsoleLevel, text: () => string) => void,
): void {
  const original = host.console[level];
  if (typeof original !== "function") return;
  host.console[level] = function (this: unknown, ...args: unknown[]) {
    record(level, () => formatArgs(args));
    return original.apply(this, args);
  };
}

interface ErrorEventFields {
  message?: unknown;
  error?: unknown;
  filename?: unknown;
  lineno?: unknown;
  colno?: unknown;
}

/** An `error` event as DevTools shows it: the error's stack, or its message and location. */
function uncaughtText(event: ErrorEventFields): string {
  const where = typeof event.filename === "string" && event.filename
    ? ` (${event.filename}:${event.lineno}:${event.colno})`
    : "";
  if (event.error !== undefined && event.error !== null) {
    const text = formatArgs([event.error]);
    return `Uncaught ${text}${where && !text.includes(String(event.filename)) ? where : ""}`;
  }
  return `${String(event.message ?? "Uncaught error")}${where}`;
}
