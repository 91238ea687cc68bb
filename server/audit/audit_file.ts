/**
 * `audit.log`: one JSON entry per line, appended in order, rotated to `audit.log.1` before a line
 * would take the file past its limit. The file stays open (mode 0600). Entries are queued and
 * written a moment later (a zero-delay timer, off the path of the call's answer) with one `write`
 * for every entry queued by then, so a call costs one system call at most and less under load,
 * and concurrent calls never interleave or split a line. At most every AUDIT_CHECK_MS the path is
 * looked at once (one `stat`): a file removed, moved or truncated by someone else is reopened (or
 * its size taken again), and a failed write reopens the file and tries once more. `flush()` writes
 * what is queued and closes the file, so a stopped hub loses no entry and holds no descriptor; an
 * entry appended after that (a call still finishing while the hub shuts down) is written at once
 * (open, write, close), with no timer and no descriptor left behind.
 *
 * The path is never followed through a symbolic link: one found at `audit.log` is removed and a new
 * file created, so making the log private can never change the mode of another file.
 */
import { AUDIT_FILE_MAX_BYTES, type AuditEntry } from "../../protocol/audit.ts";
import { concatBytes } from "../../protocol/bytes.ts";

/** The longest the writer goes without checking that its open file is still `audit.log`. */
export const AUDIT_CHECK_MS = 1_000;

export interface AuditFile {
  append(entry: AuditEntry): void;
  /** Resolves when every entry appended so far is on disk; closes the file for good. */
  flush(): Promise<void>;
}

export interface AuditWriter extends AuditFile {
  /** Writes every entry appended so far now; the file stays open. */
  written(): Promise<void>;
}

export interface AuditFileOptions {
  maxBytes?: number;
  onError?: (message: string) => void;
  /** Milliseconds, monotonic (default `performance.now`). */
  clock?: () => number;
  checkMs?: number;
}

const MODE = 0o600;
const onWindows = Deno.build.os === "windows";

/** The open `audit.log`, its size as written, and its identity (to notice a replaced file). */
interface OpenFile {
  file: Deno.FsFile;
  size: number;
  identity: string;
}

/** What one writer knows: its path and limits, and the file it has open (if any). */
interface Target {
  path: string;
  maxBytes: number;
  checkMs: number;
  clock: () => number;
  current?: OpenFile;
  checkedAt: number;
}

const identityOf = (info: Deno.FileInfo) => `${info.dev}:${info.ino}`;

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Removes a symbolic link (or anything else not a plain file) found where the log belongs. */
function replaceNonFile(path: string) {
  const info = lstat(path);
  if (info && !info.isFile) Deno.removeSync(path);
}

/** Makes the open file 0600 when it is not, only while the path still leads to it, then checks. */
function makePrivate(path: string, file: Deno.FsFile, opened: Deno.FileInfo) {
  if (onWindows || (opened.mode! & 0o777) === MODE) return;
  const now = lstat(path);
  if (!now?.isFile || identityOf(now) !== identityOf(opened)) {
    throw new Error(`${path} was replaced while being opened; the next entry tries again`);
  }
  Deno.chmodSync(path, MODE);
  const mode = file.statSync().mode! & 0o777;
  if (mode !== MODE) {
    throw new Error(`cannot make ${path} private (mode ${mode.toString(8)}); chmod 600 it`);
  }
}

/** Opens `path` for appending, private (0600) and never through a link. */
function openPrivate(path: string): OpenFile {
  replaceNonFile(path);
  const file = Deno.openSync(path, { append: true, create: true, mode: MODE });
  try {
    const info = file.statSync();
    makePrivate(path, file, info);
    return { file, size: info.size, identity: identityOf(info) };
  } catch (error) {
    file.close();
    throw error;
  }
}

function closeTarget(t: Target) {
  try {
    t.current?.file.close();
  } catch {
    // already closed
  }
  t.current = undefined;
}

/** The open file, reopened when the path no longer leads to it (looked at every `checkMs`). */
function openTarget(t: Target): OpenFile {
  if (t.current && t.clock() - t.checkedAt >= t.checkMs) {
    t.checkedAt = t.clock();
    const info = lstat(t.path);
    if (!info?.isFile || identityOf(info) !== t.current.identity) closeTarget(t);
    else t.current.size = info.size; // truncated or appended to by someone else
  }
  if (!t.current) {
    t.current = openPrivate(t.path);
    t.checkedAt = t.clock();
  }
  return t.current;
}

/** Writes `bytes`; after a failure the file is reopened and the rest tried once more. */
function writeBytes(t: Target, bytes: Uint8Array) {
  let written = 0;
  for (let failures = 0; written < bytes.length;) {
    try {
      const open = openTarget(t);
      const n = open.file.writeSync(bytes.subarray(written));
      open.size += n;
      written += n;
    } catch (error) {
      closeTarget(t);
      if (++failures > 1) throw error;
    }
  }
}

function rotate(t: Target) {
  closeTarget(t);
  try {
    Deno.renameSync(t.path, `${t.path}.1`);
  } catch {
    // gone already: the next write starts a new file either way
  }
  openTarget(t);
}

/** Writes the lines, rotating before one would take the file past `maxBytes`. */
function writeLines(t: Target, lines: Uint8Array[]) {
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const writeBatch = () => {
    if (batch.length === 0) return;
    writeBytes(t, concatBytes(batch));
    batch = [];
    batchBytes = 0;
  };
  for (const line of lines) {
    const used = openTarget(t).size + batchBytes;
    if (used > 0 && used + line.length > t.maxBytes) {
      writeBatch();
      rotate(t);
    }
    batch.push(line);
    batchBytes += line.length;
  }
  writeBatch();
}

export function createAuditFile(path: string, options: AuditFileOptions = {}): AuditWriter {
  const target: Target = {
    path,
    maxBytes: options.maxBytes ?? AUDIT_FILE_MAX_BYTES,
    checkMs: options.checkMs ?? AUDIT_CHECK_MS,
    clock: options.clock ?? (() => performance.now()),
    checkedAt: 0,
  };
  const encoder = new TextEncoder();
  let queue: Uint8Array[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushed = false;

  /** Writes every queued entry now. Never throws: a failure is reported and its entries dropped. */
  function drain() {
    clearTimeout(timer);
    timer = undefined;
    const lines = queue;
    queue = [];
    if (lines.length === 0) return;
    try {
      writeLines(target, lines);
    } catch (error) {
      closeTarget(target);
      options.onError?.(`Cannot write ${path}: ${(error as Error).message}`);
    }
    if (flushed) closeTarget(target);
  }

  return {
    append(entry) {
      queue.push(encoder.encode(JSON.stringify(entry) + "\n"));
      if (flushed) drain();
      else timer ??= setTimeout(drain, 0);
    },
    written() {
      drain();
      return Promise.resolve();
    },
    flush() {
      flushed = true;
      drain();
      closeTarget(target);
      return Promise.resolve();
    },
  };
}
