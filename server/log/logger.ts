/**
 * Leveled logging to the terminal and `<config>/server.log`. Every line is scrubbed of the secret
 * (and of anything shaped like one or like a Bearer token) before it is written anywhere.
 */
import { UserError } from "../user_error.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Append lines to this file; omitted = terminal only. */
  file?: string;
  /** Write lines to stderr as well; default true. */
  terminal?: boolean;
  clock?: () => Date;
}

/** Parses `HUB_LOG_LEVEL`; throws with the valid choices when the value is unknown. */
export function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === "") return "info";
  const level = value.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new UserError(
    `HUB_LOG_LEVEL="${value}" is not a log level. Use one of: ${LOG_LEVELS.join(", ")}.`,
  );
}

/** Removes secrets: 64-hex runs and Bearer tokens become `[redacted]`. */
export function redact(line: string): string {
  return line
    .replace(/\b[0-9a-fA-F]{64}\b/g, "[redacted]")
    .replace(/(Bearer\s+)\S+/gi, "$1[redacted]");
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const clock = options.clock ?? (() => new Date());
  const terminal = options.terminal ?? true;
  const encoder = new TextEncoder();
  let file: Deno.FsFile | undefined;
  if (options.file) {
    file = Deno.openSync(options.file, { append: true, create: true, mode: 0o600 });
  }

  function write(level: LogLevel, message: string): void {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const line = `${clock().toISOString()} ${level.toUpperCase().padEnd(5)} ${redact(message)}\n`;
    if (terminal) {
      try {
        Deno.stderr.writeSync(encoder.encode(line));
      } catch {
        // terminal gone (detached): the file still has the line
      }
    }
    try {
      file?.writeSync(encoder.encode(line));
    } catch {
      // disk full or file removed: logging must never take the server down
    }
  }

  return {
    debug: (m) => write("debug", m),
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
  };
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
