/**
 * Leveled logging to the terminal and `<config>/server.log`. Every line is scrubbed of the secret
 * (and of anything shaped like one or like a Bearer token) before it is written anywhere, and cut
 * to a bounded length (an error's stack or a hostile message cannot flood the log). The hub
 * process is the only writer of `server.log` (a background hub has no stdout), so the logger
 * rotates it like `audit.log`: before a line would take it past its limit, `server.log` becomes
 * `server.log.1` (replacing the older one) and a new `server.log` starts. Anything but a plain
 * file at the path (a FIFO, a link) is replaced before each open (./log_path.ts), never waited on.
 */
import { clip } from "../../protocol/clip.ts";
import { LOG_LEVELS, type LogLevel } from "../../core/config/log_level.ts";
import { replaceNonFile } from "./log_path.ts";
import type { Logger } from "./logger_interface.ts";

/** `server.log` rotates to `server.log.1` at this size. */
export const SERVER_LOG_MAX_BYTES = 10 * 1024 * 1024;
/** Characters of one logged message (stack traces included); the rest is cut with "…". */
export const MAX_LOG_MESSAGE_CHARS = 8_000;

export interface LoggerOptions {
  level: LogLevel;
  /** Append lines to this file; omitted = terminal only. */
  file?: string;
  /** Size at which `file` rotates to `<file>.1`; default SERVER_LOG_MAX_BYTES. */
  maxFileBytes?: number;
  /** Write lines to stderr as well; default true. */
  terminal?: boolean;
  clock?: () => Date;
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
  const file = options.file ? rotatingFile(options.file, options.maxFileBytes) : undefined;

  function write(level: LogLevel, message: string): void {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const text = clip(redact(message), MAX_LOG_MESSAGE_CHARS);
    const line = encoder.encode(
      `${clock().toISOString()} ${level.toUpperCase().padEnd(5)} ${text}\n`,
    );
    if (terminal) {
      try {
        Deno.stderr.writeSync(line);
      } catch {
        // terminal gone (detached): the file still has the line
      }
    }
    file?.write(line);
  }

  return {
    debug: (m) => write("debug", m),
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
  };
}

/** An append-only file that becomes `<path>.1` before a write would take it past `maxBytes`. */
function rotatingFile(path: string, maxBytes = SERVER_LOG_MAX_BYTES) {
  // A FIFO (or a link) at the path would block the open or redirect the lines: replaced first.
  const open = () => {
    replaceNonFile(path);
    return Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  };
  let file: Deno.FsFile | undefined = open();
  let size = file.statSync().size;

  function rotate() {
    file?.close();
    file = undefined;
    let rotated = true;
    try {
      Deno.renameSync(path, `${path}.1`);
    } catch {
      rotated = false; // removed or a read-only dir: keep appending, try again after maxBytes
    }
    file = open();
    size = rotated ? file.statSync().size : 0;
  }

  return {
    write(bytes: Uint8Array) {
      try {
        if (size > 0 && size + bytes.length > maxBytes) rotate();
        let written = 0;
        while (written < bytes.length) written += file!.writeSync(bytes.subarray(written));
        size += bytes.length;
      } catch {
        // disk full or file removed: logging must never take the server down
      }
    },
  };
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
