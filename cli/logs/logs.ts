/**
 * `hub logs [--lines 50] [-f] [--plugin <name>]`: reads `server.log` (and `server.log.1`, the
 * part before the last rotation, when `server.log` has fewer lines than asked for). With
 * `--plugin` it reads the plugins' own log, `plugins.log` (and `plugins.log.1`), instead, keeping
 * that plugin's `[plugin:<name>]` lines.
 */
import { setTimeout as delay } from "node:timers/promises";
import { UserError } from "../../core/cli/user_error.ts";
import { cliPaths } from "../../core/client/client_context.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import {
  moveAwayAdvice,
  readBoundedTail,
  unusableFile,
  unusableFileMessage,
} from "../../core/files/bounded_read.ts";

/**
 * The most of a log file read (logs rotate at 10 MB): its end, when it grew larger. A FIFO or
 * device there is never opened.
 */
export const MAX_LOG_READ_BYTES = 16 * 1024 * 1024;

/** A log's last lines as read, and the offset in the file its text ends at. */
export interface LogTail {
  text: string;
  end: number;
}

/**
 * The end of the log at `path`: its last `maxBytes` (default MAX_LOG_READ_BYTES), from the start
 * of a line, through the bounded reader. NotFound and an unusable file are thrown as they come.
 */
export async function readLogTail(path: string, maxBytes = MAX_LOG_READ_BYTES): Promise<LogTail> {
  const { bytes, start } = await readBoundedTail(path, { maxBytes });
  const end = start + bytes.length;
  let from = 0;
  if (start > 0) {
    // Cut in the middle of a line: the part before its first newline is left out.
    const newline = bytes.indexOf(0x0a);
    from = newline === -1 ? bytes.length : newline + 1;
  }
  return { text: new TextDecoder().decode(bytes.subarray(from)), end };
}

/**
 * `<what>: <the file cannot be used, move it away; the hub writes a new one>.` for a log at `path`
 * that is a FIFO, a device or otherwise unusable; undefined for any other error.
 */
export function unusableLogError(
  what: string,
  path: string,
  error: unknown,
): UserError | undefined {
  const unusable = unusableFile(error);
  if (!unusable) return undefined;
  const fix = `${moveAwayAdvice(path)}; the hub writes a new one`;
  return new UserError(`${what}: ${unusableFileMessage(path, unusable, fix)}.`);
}

export interface LogsOptions {
  lines?: string;
  follow?: boolean;
  plugin?: string;
}

export async function logsCommand(options: LogsOptions, signal?: AbortSignal): Promise<void> {
  const paths = cliPaths();
  const path = options.plugin ? paths.pluginsLog : paths.serverLog;
  const count = parseLineCount(options.lines ?? "50");
  const keep = (line: string) => !options.plugin || line.includes(`[plugin:${options.plugin}]`);
  let text = "";
  let end = 0;
  try {
    ({ text, end } = await readLogTail(path));
  } catch (error) {
    const unusable = unusableLogError("Cannot show the log", path, error);
    if (unusable) throw unusable;
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    if (!options.follow) {
      throw new UserError(`No log yet: ${path} does not exist. It is written by "hub start".`);
    }
  }
  let lines = text.split("\n").filter((l) => l !== "" && keep(l));
  if (lines.length < count) {
    // The log rotated lately: the lines before it are in <log>.1.
    const older = (await readLogTail(`${path}.1`).catch(() => ({ text: "" }))).text;
    lines = [...older.split("\n").filter((l) => l !== "" && keep(l)), ...lines];
  }
  // Plugin lines hold a page's or plugin's words: hidden characters and terminal escapes escaped.
  for (const line of count === 0 ? [] : lines.slice(-count)) console.log(visibleText(line));
  if (options.follow) await follow(path, end, keep, signal);
}

function parseLineCount(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new UserError(`--lines "${value}" is not a number of lines: use a whole number.`);
  }
  return Number(value);
}

/** Prints lines appended after `offset` until `signal` aborts (or forever). */
async function follow(
  path: string,
  offset: number,
  keep: (line: string) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  let partial = "";
  const decoder = new TextDecoder();
  while (!signal?.aborted) {
    await delay(250);
    let size: number;
    try {
      size = (await Deno.stat(path)).size;
    } catch {
      continue; // not created yet
    }
    if (size < offset) offset = 0; // truncated or replaced: start over
    if (size === offset) continue;
    const file = await Deno.open(path, { read: true });
    try {
      await file.seek(offset, Deno.SeekMode.Start);
      const buffer = new Uint8Array(size - offset);
      let read = 0;
      while (read < buffer.length) {
        const n = await file.read(buffer.subarray(read));
        if (n === null) break;
        read += n;
      }
      offset += read;
      const chunk = partial + decoder.decode(buffer.subarray(0, read), { stream: true });
      const lines = chunk.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (line !== "" && keep(line)) console.log(visibleText(line));
    } finally {
      file.close();
    }
  }
}
