/**
 * A lock file that serializes writers across processes. The lock is a file created with
 * `createNew` (atomic on every file system hub supports); it holds the owner's pid for people
 * reading it. A lock older than `staleMs` is left over from a crashed process and is broken.
 */
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
  await acquire(lockPath, options.timeoutMs ?? 10_000, options.staleMs ?? 10_000);
  try {
    return await fn();
  } finally {
    await Deno.remove(lockPath).catch(() => {});
  }
}

async function acquire(lockPath: string, timeoutMs: number, staleMs: number): Promise<void> {
  const started = Date.now();
  while (true) {
    try {
      const file = await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
      await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
      file.close();
      return;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (await isStale(lockPath, staleMs)) {
      await Deno.remove(lockPath).catch(() => {});
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}. ` +
          `If no other hub command is running, delete that file and try again.`,
      );
    }
    await new Promise((r) => setTimeout(r, 2 + Math.random() * 8));
  }
}

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const info = await Deno.stat(lockPath);
    return info.mtime !== null && Date.now() - info.mtime.getTime() > staleMs;
  } catch {
    return false; // vanished meanwhile: just retry
  }
}
