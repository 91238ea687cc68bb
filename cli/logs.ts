/**
 * `hub logs [--lines 50] [-f] [--plugin <name>]`: reads `server.log` (and `server.log.1`, the
 * part before the last rotation, when `server.log` has fewer lines than asked for). With
 * `--plugin` it reads the plugins' own log, `plugins.log` (and `plugins.log.1`), instead, keeping
 * that plugin's `[plugin:<name>]` lines.
 */
import { setTimeout as delay } from "node:timers/promises";
import { CliError } from "../core/cli_error.ts";
import { cliPaths } from "../core/client_context.ts";
import { visibleText } from "../protocol/visible_text.ts";
import { readBoundedText, UnusableFileError } from "../core/bounded_read.ts";

/** The most of a log file read (logs rotate at 10 MB); a FIFO or device there is never opened. */
const MAX_LOG_READ_BYTES = 16 * 1024 * 1024;

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
  let text: string;
  try {
    text = await readBoundedText(path, { maxBytes: MAX_LOG_READ_BYTES });
  } catch (error) {
    if (error instanceof UnusableFileError) {
      throw new CliError(
        `Cannot show the log: ${error.message}. Move it away; hub writes a new one.`,
      );
    }
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    if (!options.follow) {
      throw new CliError(`No log yet: ${path} does not exist. It is written by "hub start".`);
    }
    text = "";
  }
  let lines = text.split("\n").filter((l) => l !== "" && keep(l));
  if (lines.length < count) {
    // The log rotated lately: the lines before it are in <log>.1.
    const older = await readBoundedText(`${path}.1`, { maxBytes: MAX_LOG_READ_BYTES })
      .catch(() => "");
    lines = [...older.split("\n").filter((l) => l !== "" && keep(l)), ...lines];
  }
  // Plugin lines hold a page's or plugin's words: hidden characters and terminal escapes escaped.
  for (const line of count === 0 ? [] : lines.slice(-count)) console.log(visibleText(line));
  if (options.follow) await follow(path, new TextEncoder().encode(text).length, keep, signal);
}

function parseLineCount(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new CliError(`--lines "${value}" is not a number of lines: use a whole number.`);
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
