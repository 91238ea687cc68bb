/**
 * A parsed file that follows its changes on disk without a file system call per access. `get()`
 * answers from memory and looks at the file again (one `stat`; a read and parse only when the
 * file's identity, size or modification time changed) when a watcher said the file changed
 * (`touched()`, see watch_files.ts) or when its last look is older than `maxAgeMs`, so an edit is
 * seen within that bound even where native watching fails. A change that does not parse is reported
 * once and the last good value stays in force, so a half-edited or deleted file never leaves the
 * hub without a config or, worse, without its secret. Each read is bounded (core/files/bounded_read.ts):
 * a path that is not a regular file (a FIFO, /dev/zero, a folder) or is larger than `maxBytes` is
 * refused without being opened, so it cannot block the hub or fill its memory.
 */
import { readBoundedTextSync } from "./bounded_read.ts";

export interface LiveFile<T> {
  /** The current value (re-read if the file changed). Never throws. */
  get(): T;
  /** Reads and parses now; throws (including when the file is missing) and keeps the old value. */
  refresh(): T;
}

/** A live file with the two doors its owner uses: the watcher's signal and a look right now. */
export interface FollowedFile<T> extends LiveFile<T> {
  /**
   * The value as the file is now: looks at it at once (one `stat`, a read if it changed), unless
   * it was looked at within the last `freshGapMs` (10 ms) and no event came since, so a flood of
   * callers (refused credentials) costs at most one `stat` per gap.
   */
  fresh(): T;
  /** The file may have changed (a watcher's event): the next `get()` looks at it. */
  touched(): void;
}

/** The longest `get()` answers from memory without looking at the file, when no event came. */
export const LIVE_FILE_MAX_AGE_MS = 100;

/** The shortest time between two looks that `fresh()` asks for. */
export const LIVE_FILE_FRESH_GAP_MS = 10;

export interface LiveFileOptions {
  maxAgeMs?: number;
  /** The largest file accepted (file_limits.ts has the hub's). */
  maxBytes: number;
  freshGapMs?: number;
  /** Milliseconds, monotonic (default `performance.now`). */
  clock?: () => number;
}

const MISSING = "missing";

/** Reads and parses `path` now (throwing if it is missing or invalid), then follows it. */
export function liveFile<T>(
  path: string,
  parse: (text: string) => T,
  onError: (message: string) => void,
  options: LiveFileOptions,
): FollowedFile<T> {
  const maxAgeMs = options.maxAgeMs ?? LIVE_FILE_MAX_AGE_MS;
  const freshGapMs = options.freshGapMs ?? LIVE_FILE_FRESH_GAP_MS;
  const clock = options.clock ?? (() => performance.now());
  const { maxBytes } = options;
  let value: T;
  /** The text `value` was parsed from: a read that finds the same text keeps the same value. */
  let text: string | undefined;
  let seen: string | undefined;
  /** The stamp of the last version that failed (reported once, not read again). */
  let failed: string | undefined;
  let checkedAt = 0;
  let stale = false;

  /** Reads and parses the file whose stamp (one `stat`) is `stamp`. */
  function load(stamp = fingerprint(path)): T {
    if (stamp === undefined) throw new Deno.errors.NotFound(`${path} does not exist`);
    const read = readBoundedTextSync(path, maxBytes);
    // An event that changed nothing (a late one, or a rewrite of the same bytes) keeps the value.
    const next = read === text ? value : parse(read);
    value = next;
    text = read;
    seen = stamp;
    failed = undefined;
    checkedAt = clock();
    stale = false;
    return next;
  }

  /**
   * One `stat`; a read when the stamp changed, or always after an event (`force`): a rewrite of
   * the same size within one tick of the file system's clock keeps its stamp.
   */
  function look(force = false): T {
    stale = false;
    checkedAt = clock();
    const stamp = fingerprint(path);
    const key = stamp ?? MISSING;
    if (!force && (stamp === seen || key === failed)) return value;
    try {
      return load(stamp);
    } catch (error) {
      if (key !== failed) {
        failed = key;
        onError(`Keeping the previous contents of ${path}: ${(error as Error).message}`);
      }
      return value;
    }
  }

  value = load();
  return {
    get: () => (stale ? look(true) : clock() - checkedAt >= maxAgeMs ? look() : value),
    fresh: () => (stale || clock() - checkedAt >= freshGapMs ? look(stale) : value),
    touched() {
      stale = true;
    },
    refresh: load,
  };
}

function fingerprint(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
  } catch {
    return undefined;
  }
}
