/**
 * Native change events for a few files (the hub's config.json and auth.json). The files are
 * watched themselves, not their folder: the config folder also holds `audit.log` and `server.log`,
 * written on every call, and each event costs the process several system calls. An atomic write
 * replaces a file by rename, which ends the watch of the old file, so after such an event the
 * watch is set up again on the files now at those paths (and every file counts as changed, for
 * what happened in between). A missing file is watched through its folder until it appears.
 * Watching is a speed-up only: when it cannot start or stops (no inotify instance left, a folder
 * removed) `onChange` is simply not called any more, and callers keep their own time bound
 * (live_file.ts).
 */
import { dirname, resolve } from "node:path";
import type { FsWatcher, WatchFs } from "./safe_watch.ts";

export interface WatchFilesOptions {
  /**
   * Native watching: a watch worker's `watchFs` (safe_watch.ts: a FIFO at a watched path cannot
   * block the caller), or a stand-in in tests.
   */
  watchFs: WatchFs;
  /** Why native watching could not start or stopped (not called after `close()`). */
  onError?: (message: string) => void;
}

export interface FilesWatch {
  /** Whether native events still arrive. */
  active(): boolean;
  close(): void;
}

/**
 * Kinds that say nothing about the contents: "access" (an open, a read, or the close after a write,
 * which always comes after its "modify"). Where a backend reports reads, counting them would make
 * each read of the file (after an event) cause the next one.
 */
const IGNORED = new Set<Deno.FsEvent["kind"]>(["access"]);

/** Kinds after which the path may lead to another file (or none): the watch is set up again. */
const REPLACING = new Set<Deno.FsEvent["kind"]>(["create", "remove", "rename", "any", "other"]);

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Calls `onChange(path)` (with the path as given) after each native event about one of `paths`. */
export function watchFiles(
  paths: string[],
  onChange: (path: string) => void,
  options: WatchFilesOptions,
): FilesWatch {
  const { watchFs } = options;
  const byResolved = new Map(paths.map((p) => [resolve(p), p]));
  let watcher: FsWatcher | undefined;
  let closed = false;

  const report = (message: string) => {
    if (!closed) options.onError?.(message);
  };

  /** The paths of ours an event names; all of them when it names none (a queue overflow). */
  function named(event: Deno.FsEvent): string[] {
    if (event.paths.length === 0 || event.flag === "rescan") return paths;
    return event.paths.flatMap((p) => byResolved.get(p) ?? []);
  }

  async function follow(mine: FsWatcher, targets: string[]) {
    try {
      for await (const event of mine) {
        if (IGNORED.has(event.kind)) continue;
        const hit = named(event);
        for (const path of hit) onChange(path);
        if (hit.length > 0 && REPLACING.has(event.kind)) return rearm();
      }
      if (mine === watcher) report(`Watching ${targets.join(", ")} stopped.`);
    } catch (error) {
      if (mine === watcher) {
        report(`Watching ${targets.join(", ")} failed: ${(error as Error).message}`);
      }
    }
    if (mine === watcher) watcher = undefined;
  }

  function arm() {
    const targets = [...new Set([...byResolved.keys()].map((p) => (exists(p) ? p : dirname(p))))];
    try {
      watcher = watchFs(targets);
    } catch (error) {
      watcher = undefined;
      report(`Cannot watch ${targets.join(", ")}: ${(error as Error).message}`);
      return;
    }
    void follow(watcher, targets);
  }

  function stop() {
    const old = watcher;
    watcher = undefined;
    try {
      old?.close();
    } catch {
      // already closed
    }
  }

  function rearm() {
    stop();
    if (closed) return;
    arm();
    for (const path of paths) onChange(path); // what changed before the new watch began
  }

  arm();
  return {
    active: () => watcher !== undefined,
    close() {
      closed = true;
      stop();
    },
  };
}
