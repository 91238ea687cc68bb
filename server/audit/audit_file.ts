/**
 * `audit.log`: one JSON entry per line, appended in order, rotated to `audit.log.1` before a line
 * would take the file past its limit. The file stays open (mode 0600). Entries are queued and
 * written a moment later (a zero-delay timer, off the path of the call's answer) with one `write`
 * for every entry queued by then, so a call costs one system call at most and less under load,
 * and concurrent calls never interleave or split a line. At most every AUDIT_CHECK_MS the path is
 * looked at once (one `stat`): a file removed, moved or truncated by someone else is reopened (or
 * its size taken again), and a failed write reopens the file and tries once more. `flush()` writes
 * what is queued and closes the file, so a stopped hub loses no entry and holds no descriptor; a
 * later entry opens it again.
 */
import { AUDIT_FILE_MAX_BYTES, type AuditEntry } from "../../protocol/audit.ts";

/** The longest the writer goes without checking that its open file is still `audit.log`. */
export const AUDIT_CHECK_MS = 1_000;

export interface AuditFile {
  append(entry: AuditEntry): void;
  /** Resolves when every entry appended so far is on disk; closes the file until the next one. */
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

const identityOf = (info: Deno.FileInfo) => `${info.dev}:${info.ino}`;

export function createAuditFile(path: string, options: AuditFileOptions = {}): AuditWriter {
  const maxBytes = options.maxBytes ?? AUDIT_FILE_MAX_BYTES;
  const clock = options.clock ?? (() => performance.now());
  const checkMs = options.checkMs ?? AUDIT_CHECK_MS;
  const encoder = new TextEncoder();
  let queue: Uint8Array[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: OpenFile | undefined;
  let checkedAt = 0;

  function open(): OpenFile {
    const file = Deno.openSync(path, { append: true, create: true, mode: MODE });
    try {
      const info = file.statSync();
      // An existing file keeps its mode on open: make it private like a new one.
      if (!onWindows && (info.mode! & 0o777) !== MODE) Deno.chmodSync(path, MODE);
      checkedAt = clock();
      return { file, size: info.size, identity: identityOf(info) };
    } catch (error) {
      file.close();
      throw error;
    }
  }

  function close() {
    try {
      current?.file.close();
    } catch {
      // already closed
    }
    current = undefined;
  }

  /** The open file, reopened when the path no longer leads to it (looked at every `checkMs`). */
  function target(): OpenFile {
    if (current && clock() - checkedAt >= checkMs) {
      checkedAt = clock();
      let info: Deno.FileInfo | undefined;
      try {
        info = Deno.statSync(path);
      } catch {
        // removed: reopen below
      }
      if (!info || identityOf(info) !== current.identity) close();
      else current.size = info.size; // truncated or appended to by someone else
    }
    return current ??= open();
  }

  /** Writes `bytes`; after a failure the file is reopened and the rest tried once more. */
  function write(bytes: Uint8Array) {
    let written = 0;
    for (let failures = 0; written < bytes.length;) {
      try {
        const open = target();
        const n = open.file.writeSync(bytes.subarray(written));
        open.size += n;
        written += n;
      } catch (error) {
        close();
        if (++failures > 1) throw error;
      }
    }
  }

  function rotate() {
    close();
    try {
      Deno.renameSync(path, `${path}.1`);
    } catch {
      // gone already: the next write starts a new file either way
    }
    current = open();
  }

  /** Writes the lines, rotating before one would take the file past `maxBytes`. */
  function writeLines(lines: Uint8Array[]) {
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    const writeBatch = () => {
      if (batch.length === 0) return;
      write(batch.length === 1 ? batch[0] : concat(batch, batchBytes));
      batch = [];
      batchBytes = 0;
    };
    for (const line of lines) {
      const used = target().size + batchBytes;
      if (used > 0 && used + line.length > maxBytes) {
        writeBatch();
        rotate();
      }
      batch.push(line);
      batchBytes += line.length;
    }
    writeBatch();
  }

  /** Writes every queued entry now. Never throws: a failure is reported and its entries dropped. */
  function drain() {
    clearTimeout(timer);
    timer = undefined;
    const lines = queue;
    queue = [];
    if (lines.length === 0) return;
    try {
      writeLines(lines);
    } catch (error) {
      close();
      options.onError?.(`Cannot write ${path}: ${(error as Error).message}`);
    }
  }

  return {
    append(entry) {
      queue.push(encoder.encode(JSON.stringify(entry) + "\n"));
      timer ??= setTimeout(drain, 0);
    },
    written() {
      drain();
      return Promise.resolve();
    },
    flush() {
      drain();
      close();
      return Promise.resolve();
    },
  };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
