/**
 * A parsed file that follows its changes on disk. `get()` costs one `stat`; the file is read and
 * parsed again only when its identity, size or modification time changed. A change that does not
 * parse is reported once and the last good value stays in force, so a half-edited or deleted file
 * never leaves the hub without a config or, worse, without its secret.
 */
export interface LiveFile<T> {
  /** The current value (re-read if the file changed). Never throws. */
  get(): T;
  /** Reads and parses now; throws (including when the file is missing) and keeps the old value. */
  refresh(): T;
}

/** Reads and parses `path` now (throwing if it is missing or invalid), then follows it. */
export function liveFile<T>(
  path: string,
  parse: (text: string) => T,
  onError: (message: string) => void,
): LiveFile<T> {
  let value: T;
  let seen: string | undefined;
  let reported: string | undefined;

  function load(): T {
    const stamp = fingerprint(path);
    if (stamp === undefined) throw new Deno.errors.NotFound(`${path} does not exist`);
    const next = parse(Deno.readTextFileSync(path));
    value = next;
    seen = stamp;
    reported = undefined;
    return next;
  }

  value = load();
  return {
    get() {
      const stamp = fingerprint(path);
      if (stamp === seen) return value;
      try {
        return load();
      } catch (error) {
        const key = stamp ?? "missing";
        if (reported !== key) {
          reported = key;
          onError(`Keeping the previous contents of ${path}: ${(error as Error).message}`);
        }
        return value;
      }
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
