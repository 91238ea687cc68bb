/**
 * A lock file that serializes writers across processes, and survives writers that are killed.
 *
 * The lock file holds its owner: `{pid, startTime, token}`. It appears complete or not at all: the
 * owner writes a temp file and hard-links it to the lock path (atomic, and fails if the lock
 * exists). A waiter polls with a growing, jittered delay. A lock that has existed for a moment
 * (`CHECK_AFTER_MS`) has its owner looked up: when that process is gone, or its pid now belongs to
 * a process that started at another time, the lock is broken at once. Breakers take turns through
 * a second lock (`<lock>.break`) and remove the lock only if it still holds the dead owner, so a
 * breaker never removes a lock another writer has just taken. Where owners cannot be looked up
 * (no `ps`, Windows) or the lock has no owner record (an older hub), a lock older than `staleMs`
 * is broken instead. A lock held by a live owner is waited for, up to `timeoutMs` in all.
 */
import { readBoundedText } from "./bounded_read.ts";
import { UserError } from "../cli/user_error.ts";
import { createFileAtomic } from "./atomic_write.ts";
import { currentStartTime, type ProcessState, processState } from "../process/process_identity.ts";

/** Not `node:timers/promises`: on `hub start` it would load Deno's Node compatibility layer. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface FileLockOptions {
  /** Give up waiting for a live owner after this long in all; default `LOCK_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** A lock whose owner cannot be looked up is treated as abandoned after this; default 10 s. */
  staleMs?: number;
}

/** How long a writer waits for the lock before it fails: 60 s, far above 100 writers' queue. */
export const LOCK_TIMEOUT_MS = 60_000;
/** A lock younger than this is not looked up: writers hold it for milliseconds. */
const CHECK_AFTER_MS = 500;
/** How often a waiter looks up the same live owner again. */
const RECHECK_MS = 1_000;
const MIN_POLL_MS = 2;
const MAX_POLL_MS = 50;

interface LockOwner {
  pid: number;
  startTime?: string;
  token: string;
}

export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const startTime = await currentStartTime();
  const owner: LockOwner = { pid: Deno.pid, startTime, token: crypto.randomUUID() };
  const text = JSON.stringify(owner) + "\n";
  await acquire(lockPath, text, {
    timeoutMs: options.timeoutMs ?? LOCK_TIMEOUT_MS,
    staleMs: options.staleMs ?? 10_000,
  });
  try {
    return await fn();
  } finally {
    if (await readText(lockPath) === text) await Deno.remove(lockPath).catch(() => {});
  }
}

/** Creates `lockPath` holding `text` if it does not exist; true when this call created it. */
async function tryCreate(lockPath: string, text: string): Promise<boolean> {
  if (await stat(lockPath)) return false; // the common case while waiting: no temp file needed
  // A lock lives for milliseconds and is checked by its owner record, so it is not flushed.
  return await createFileAtomic(lockPath, text, { flush: false }) ??
    await createDirectly(lockPath, text); // a file system without hard links
}

async function createDirectly(lockPath: string, text: string): Promise<boolean> {
  try {
    await Deno.writeTextFile(lockPath, text, { createNew: true, mode: 0o600 });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

interface Limits {
  timeoutMs: number;
  staleMs: number;
}

async function acquire(lockPath: string, text: string, limits: Limits): Promise<void> {
  const started = Date.now();
  const watcher = ownerWatcher(limits.staleMs);
  let pollMs = MIN_POLL_MS;
  while (true) {
    if (await tryCreate(lockPath, text)) return;
    const seen = await watcher.inspect(lockPath);
    if (seen.state === "gone") continue;
    if (seen.state === "dead") {
      await breakLock(lockPath, seen.text, watcher);
      continue;
    }
    if (Date.now() - started > limits.timeoutMs) throw timeoutError(lockPath, limits, seen.text);
    await delay(pollMs * (0.5 + Math.random()));
    pollMs = Math.min(MAX_POLL_MS, pollMs * 1.5);
  }
}

type Seen = { state: "gone" } | { state: "dead" | "held"; text: string };

/** Tells whether the current holder of a lock is dead, looking each owner up only now and then. */
function ownerWatcher(staleMs: number) {
  let last: { text: string; state: ProcessState; at: number } | undefined;
  const firstSeen = new Map<string, { text: string; at: number }>(); // per path: lock and guard
  return {
    async inspect(lockPath: string): Promise<Seen> {
      const [text, info] = await Promise.all([readText(lockPath), stat(lockPath)]);
      if (text === undefined || info === undefined) return { state: "gone" };
      if (firstSeen.get(lockPath)?.text !== text) firstSeen.set(lockPath, { text, at: Date.now() });
      // The file's age, or how long this waiter has seen it if the clock disagrees.
      const age = Math.max(
        Date.now() - (info.mtime?.getTime() ?? Date.now()),
        Date.now() - firstSeen.get(lockPath)!.at,
      );
      if (age < CHECK_AFTER_MS) return { state: "held", text };
      const owner = parseOwner(text);
      if (owner === undefined) return { state: age > staleMs ? "dead" : "held", text };
      if (last?.text !== text || Date.now() - last.at > RECHECK_MS) {
        last = { text, state: await processState(owner.pid, owner.startTime), at: Date.now() };
      }
      if (last.state === "unknown") return { state: age > staleMs ? "dead" : "held", text };
      return { state: last.state === "dead" ? "dead" : "held", text };
    },
  };
}

/**
 * Removes a lock whose owner is dead, if it still holds `deadText`. Breakers take turns through
 * `<lock>.break`, itself a lock, so that no breaker removes a lock taken after its check.
 */
async function breakLock(
  lockPath: string,
  deadText: string,
  watcher: ReturnType<typeof ownerWatcher>,
): Promise<void> {
  const guardPath = `${lockPath}.break`;
  const startTime = await currentStartTime();
  const guardText = JSON.stringify({ pid: Deno.pid, startTime, token: crypto.randomUUID() }) + "\n";
  if (!(await tryCreate(guardPath, guardText))) {
    // Another waiter is breaking it (a few milliseconds), or died doing so: then its guard goes.
    const guard = await watcher.inspect(guardPath);
    if (guard.state === "dead" && await readText(guardPath) === guard.text) {
      await Deno.remove(guardPath).catch(() => {});
    } else await delay(MIN_POLL_MS);
    return;
  }
  try {
    if (await readText(lockPath) === deadText) await Deno.remove(lockPath).catch(() => {});
  } finally {
    await Deno.remove(guardPath).catch(() => {});
  }
}

function timeoutError(lockPath: string, limits: Limits, text: string): UserError {
  const owner = parseOwner(text);
  const who = owner ? `process ${owner.pid}` : "another process";
  const fix = owner
    ? `If process ${owner.pid} is stuck, end it ("kill ${owner.pid}") and try again.`
    : `If no other hub command is running, delete that file and try again.`;
  return new UserError(
    `Waited ${Math.round(limits.timeoutMs / 1000)} s for the lock ${lockPath}, which ${who} ` +
      `still holds. ${fix}`,
  );
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text);
    if (!Number.isSafeInteger(value?.pid) || value.pid <= 0) return undefined;
    const startTime = typeof value.startTime === "string" ? value.startTime : undefined;
    return { pid: value.pid, startTime, token: String(value.token ?? "") };
  } catch {
    return undefined;
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readBoundedText(path, { maxBytes: 4096 }); // a FIFO or device is not opened
  } catch {
    return undefined;
  }
}

function stat(path: string): Promise<Deno.FileInfo | undefined> {
  return Deno.stat(path).catch(() => undefined);
}
