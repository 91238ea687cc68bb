/**
 * A lock file that serializes writers across processes. The lock is a file created with
 * `createNew` (atomic on every file system hub supports) holding an owner token. A lock older
 * than `staleMs` was left by a crashed process; it is broken by renaming it away, which only one
 * waiter can do, and a waiter that finds it moved a live lock puts it back.
 */
import { setTimeout as delay } from "node:timers/promises";
import { UserError } from "../user_error.ts";

export interface FileLockOptions {
  /** Give up after this long; default 10 s. */
  timeoutMs?: number;
  /** A lock file older than this is treated as abandoned; default 10 s. */
  staleMs?: number;
}

export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const token = `${Deno.pid}:${crypto.randomUUID()}`;
  await acquire(lockPath, token, options.timeoutMs ?? 10_000, options.staleMs ?? 10_000);
  try {
    return await fn();
  } finally {
    if (await readToken(lockPath) === token) await Deno.remove(lockPath).catch(() => {});
  }
}

async function acquire(lockPath: string, token: string, timeoutMs: number, staleMs: number) {
  const started = Date.now();
  while (true) {
    try {
      const file = await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
      await file.write(new TextEncoder().encode(token));
      file.close();
      return;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (await breakIfStale(lockPath, staleMs)) continue;
    if (Date.now() - started > timeoutMs) {
      throw new UserError(
        `Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}. ` +
          `If no other hub command is running, delete that file and try again.`,
      );
    }
    await delay(2 + Math.random() * 8);
  }
}

async function readToken(lockPath: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(lockPath);
  } catch {
    return undefined;
  }
}

/** Moves an abandoned lock out of the way; returns true when the caller should retry at once. */
async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(lockPath);
  } catch {
    return true; // released meanwhile
  }
  if (info.mtime === null || Date.now() - info.mtime.getTime() <= staleMs) return false;
  const moved = `${lockPath}.stale.${crypto.randomUUID()}`;
  try {
    await Deno.rename(lockPath, moved);
  } catch {
    return true; // another waiter broke it first
  }
  const movedInfo = await Deno.stat(moved);
  if (movedInfo.mtime !== null && Date.now() - movedInfo.mtime.getTime() <= staleMs) {
    // We moved a lock someone took a moment ago: give it back (link fails if a new one exists).
    await Deno.link(moved, lockPath).catch(() => {});
  }
  await Deno.remove(moved).catch(() => {});
  return true;
}
