/**
 * `audit.log`: one JSON entry per line, appended in order, rotated to `audit.log.1` before a line
 * would take the file past its limit. The file stays open (mode 0600). Each entry is written when
 * it is appended, with one synchronous `write` of the whole line, so it has reached the operating
 * system before the call's answer leaves (the pipeline audits a call before it returns the
 * answer): a hub killed at any moment, SIGKILL included, has every answered call in the file and
 * no broken line. The cost is one system call per call, a few microseconds (bench/
 * audit_durability.ts measured it against a batch written a moment later). There is no `fsync`:
 * the line survives the process, not a power cut or a crash of the machine itself.
 *
 * At most every AUDIT_CHECK_MS the path is looked at once (one `stat`): a file removed, moved or
 * truncated by someone else is reopened (or its size taken again), and a failed write reopens the
 * file and tries once more. `close()` closes the file, so a stopped hub holds no descriptor; an
 * entry appended after that (a call still finishing while the hub shuts down) is written at once
 * (open, write, close), with no descriptor left behind.
 *
 * The path is never followed through a symbolic link: one found at `audit.log` is removed and a new
 * file created, so making the log private can never change the mode of another file.
 */
import { AUDIT_FILE_MAX_BYTES, type AuditEntry } from "../../protocol/audit.ts";
import { lstatIfAny, replaceNonFile } from "../log/log_path.ts";

/** The longest the writer goes without checking that its open file is still `audit.log`. */
export const AUDIT_CHECK_MS = 1_000;

export interface AuditFile {
  /** Writes the entry's line before it returns (errors go to `onError`, never thrown). */
  append(entry: AuditEntry): void;
  /** Closes the file for good; every entry appended so far is already written. */
  close(): void;
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

/** Makes the open file 0600 when it is not, only while the path still leads to it, then checks. */
function makePrivate(path: string, file: Deno.FsFile, opened: Deno.FileInfo) {
  if (onWindows || (opened.mode! & 0o777) === MODE) return;
  const now = lstatIfAny(path);
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
    const info = lstatIfAny(t.path);
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

/** Writes one line, rotating first when it would take the file past `maxBytes`. */
function writeLine(t: Target, line: Uint8Array) {
  const used = openTarget(t).size;
  if (used > 0 && used + line.length > t.maxBytes) rotate(t);
  writeBytes(t, line);
}

export function createAuditFile(path: string, options: AuditFileOptions = {}): AuditFile {
  const target: Target = {
    path,
    maxBytes: options.maxBytes ?? AUDIT_FILE_MAX_BYTES,
    checkMs: options.checkMs ?? AUDIT_CHECK_MS,
    clock: options.clock ?? (() => performance.now()),
    checkedAt: 0,
  };
  const encoder = new TextEncoder();
  let closed = false;

  /** Writes one line now. Never throws: a failure is reported and the entry dropped. */
  function write(line: Uint8Array) {
    try {
      writeLine(target, line);
    } catch (error) {
      closeTarget(target);
      options.onError?.(`Cannot write ${path}: ${(error as Error).message}`);
    }
    if (closed) closeTarget(target);
  }

  return {
    append(entry) {
      write(encoder.encode(JSON.stringify(entry) + "\n"));
    },
    close() {
      closed = true;
      closeTarget(target);
    },
  };
}
