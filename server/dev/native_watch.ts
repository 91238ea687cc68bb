/**
 * Dev mode's native file watching (`Deno.watchFs`, non-recursive) over a set of folders. A new
 * watcher replaces the old one when the set changes, when asked to renew (a watched `dist/` was
 * removed or replaced: its old watch is gone with it), and on the next `watch` after a failure, so
 * a temporary failure (a folder missing while a build swaps it) does not leave polling for good.
 * `onFailed` is said once per run of failures, `onRestored` when a new watcher starts after one.
 */
import type { FsWatcher, WatchFs } from "../../core/files/safe_watch.ts";

export interface NativeWatchDeps {
  /** The hub's watch worker's `watchFs` (safe_watch.ts); tests inject a failing one. */
  watchFs: WatchFs;
  onEvent(event: Deno.FsEvent): void;
  /** Native watching failed (its watcher could not start, or it broke). */
  onFailed(error: Error): void;
  /** A watcher started again after a failure. */
  onRestored(): void;
}

export interface NativeWatch {
  /** Watches `paths`: a new watcher when they changed, `renew` is set or the last one failed. */
  watch(paths: string[], renew?: boolean): void;
  /** Whether native watching is failing now (the poll is then the only source of changes). */
  failing(): boolean;
  close(): void;
}

export function createNativeWatch(deps: NativeWatchDeps): NativeWatch {
  let current: FsWatcher | undefined;
  let key = "";
  let failing = false;
  let closed = false;

  function fail(error: Error) {
    current?.close();
    current = undefined;
    key = "";
    if (failing || closed) return;
    failing = true;
    deps.onFailed(error);
  }

  async function pump(watcher: FsWatcher) {
    try {
      for await (const event of watcher) deps.onEvent(event);
    } catch (error) {
      if (watcher === current) fail(error as Error);
    }
  }

  return {
    watch(paths, renew = false) {
      const next = paths.join("\n");
      if (closed || (!renew && !failing && next === key)) return;
      current?.close();
      current = undefined;
      let watcher: FsWatcher;
      try {
        watcher = deps.watchFs(paths);
      } catch (error) {
        fail(error as Error);
        return;
      }
      current = watcher;
      key = next;
      if (failing) {
        failing = false;
        deps.onRestored();
      }
      void pump(watcher);
    },
    failing: () => failing,
    close() {
      closed = true;
      current?.close();
      current = undefined;
    },
  };
}
