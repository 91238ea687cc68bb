/**
 * Writes a file so that readers only ever see the old or the new content, never half of it, and
 * cleans up after writers that were killed mid-write.
 */
import { dirname, join } from "node:path";
import { processState } from "../process/process_identity.ts";

export interface AtomicWriteOptions {
  /** File mode of the new file; default 0o600 (owner read/write only). */
  mode?: number;
  /** The rename step; injectable so tests can simulate a crash before it. */
  rename?: (from: string, to: string) => Promise<void>;
}

/**
 * Writes `data` to a temp file beside `path`, flushes it to disk, then renames it over `path`.
 * If anything fails before the rename, the old file is untouched and the temp file is removed.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const rename = options.rename ?? Deno.rename;
  const temp = await writeTemp(path, data, options.mode ?? 0o600, true);
  try {
    await rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  await syncDir(dirname(path));
}

export interface CreateFileOptions {
  /** Flush the content and the directory entry to disk; default true. */
  flush?: boolean;
}

/**
 * Creates `path` holding `data` only if it does not exist yet, without a lock: the content is
 * written beside it and hard-linked into place, which is atomic and fails when the path exists.
 * Readers see the complete file or none. True when this call created it, false when it was already
 * there, undefined when the link failed otherwise (a file system without hard links, a full disk):
 * the caller takes another way, which reports the real error.
 */
export async function createFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: CreateFileOptions = {},
): Promise<boolean | undefined> {
  const flush = options.flush ?? true;
  const temp = await writeTemp(path, data, 0o600, flush);
  try {
    await Deno.link(temp, path);
  } catch (error) {
    return error instanceof Deno.errors.AlreadyExists ? false : undefined;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  if (flush) await syncDir(dirname(path));
  return true;
}

/** A new temp file beside `path` with exactly `data` and `mode`; removed again if that fails. */
async function writeTemp(path: string, data: string | Uint8Array, mode: number, flush: boolean) {
  const random = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  const temp = join(dirname(path), tempFileName(basename(path), Deno.pid, random));
  try {
    const file = await Deno.open(temp, { write: true, createNew: true, mode });
    try {
      await writeAll(file, typeof data === "string" ? new TextEncoder().encode(data) : data);
      if (flush) await file.sync();
    } finally {
      file.close();
    }
    if (Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    return temp;
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** `.<name>.<pid>.<random>.tmp`: the temp files of this writer (and of the lock file's). */
export function tempFileName(name: string, pid: number, random: string): string {
  return `.${name}.${pid}.${random}.tmp`;
}

const TEMP_FILE = /^\.(.+)\.(\d{1,10})\.([0-9a-z]{1,13})\.tmp$/;

/**
 * Removes the temp files our writers left in `dir` when they were killed: only names of exactly
 * our pattern, and only when the pid in the name no longer runs. Returns the names removed.
 * Where processes cannot be looked up (Windows, no `ps`), nothing is removed.
 */
export async function removeOrphanTempFiles(dir: string): Promise<string[]> {
  const byPid = new Map<number, string[]>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      const match = entry.isFile ? TEMP_FILE.exec(entry.name) : null;
      if (!match) continue;
      const pid = Number(match[2]);
      byPid.set(pid, [...(byPid.get(pid) ?? []), entry.name]);
      if (byPid.size > 1000) break; // bounded work for a hostile folder
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const removed: string[] = [];
  for (const [pid, names] of byPid) {
    if (pid === Deno.pid || (await processState(pid)) !== "dead") continue;
    for (const name of names) {
      await Deno.remove(join(dir, name)).then(() => removed.push(name), () => {});
    }
  }
  return removed;
}

/** Flushes the directory entry of a rename to disk (POSIX; best effort). */
async function syncDir(dir: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // some file systems cannot sync a directory; the rename itself is still atomic
  }
}

function basename(path: string): string {
  return path.slice(dirname(path).length + 1);
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}
