/**
 * Dev mode's file watcher: each local plugin's `dist/` (its folder while `dist/` does not exist
 * yet) and config.json (watched_set.ts), through one native watcher (native_watch.ts); changes
 * are debounced per plugin and for config.json (debouncer.ts). A poll of cheap stamps
 * (stamp_poll.ts) catches what native watching missed, and takes over at a short interval while
 * native watching fails (for example when the inotify limits are reached). A missed change, or a
 * `dist/` removed and made again, renews the native watch. The watched set follows every reload,
 * is capped, and everything closes with `close()`.
 */
import type { FileWatcherEvent, FileWatcherStatus } from "../../protocol/health.ts";
import type { Logger } from "../log/logger_interface.ts";
import { createDebouncer } from "./debouncer.ts";
import { buildStamp, fileStamp } from "./build_stamp.ts";
import { createNativeWatch, type NativeWatch } from "./native_watch.ts";
import type { WatchFs } from "../../core/files/safe_watch.ts";
import { createStampPoll, type StampPoll } from "./stamp_poll.ts";
import { CONFIG, routeEvent, type Watched, watchTargets } from "./watched_set.ts";
import { dirname } from "node:path";

/** The quiet time after the last change before acting: a build writes two files in a row. */
export const DEBOUNCE_MS = 150;
/** The safety-net poll while native watching works. */
export const POLL_MS = 1_000;
/** The poll when native watching failed: it is then the only source of changes. */
export const FALLBACK_POLL_MS = 250;
/** At most this many plugin folders are watched. */
export const MAX_WATCHED_PLUGINS = 64;

/** What a change led to: the outcome, and the plugin's name when known. */
export interface ChangeResult {
  outcome: string;
  plugin?: string;
}

export interface DevWatcherDeps {
  configPath: string;
  /** The local plugin folders to watch now (loaded or not). */
  pluginDirs(): Promise<string[]>;
  /** Reacts to a changed build of the plugin in `dir`. */
  pluginChanged(dir: string): Promise<ChangeResult>;
  /** Reacts to a changed config.json. */
  configChanged(): Promise<ChangeResult>;
  logger: Logger;
  clock?: () => number;
  /** Native watching: the hub's watch worker's `watchFs` (safe_watch.ts); tests inject others. */
  watchFs: WatchFs;
  debounceMs?: number;
  pollMs?: number;
  fallbackPollMs?: number;
  maxPlugins?: number;
}

export interface DevWatcher {
  /** Re-reads the set of plugin folders (after every reload) and watches them. */
  refresh(): Promise<void>;
  status(): FileWatcherStatus;
  /** Resolves once no change waits or runs (tests). */
  idle(): Promise<void>;
  close(): void;
}

/** The first `max` of `dirs`; `warn` says so once per count when there are more. */
function capped(deps: DevWatcherDeps, dirs: string[], warned: { count: number }): string[] {
  const max = deps.maxPlugins ?? MAX_WATCHED_PLUGINS;
  if (dirs.length <= max) return dirs;
  if (warned.count !== dirs.length) {
    deps.logger.warn(
      `Dev mode watches ${max} of ${dirs.length} local plugins; changes to the others need ` +
        `"hub-plugin build" with a running hub or POST /reload.`,
    );
    warned.count = dirs.length;
  }
  return dirs.slice(0, max);
}

/** Runs the reaction to a change of `key` and turns it into `lastEvent` (null: nothing to show). */
async function react(
  deps: DevWatcherDeps,
  key: string,
  clock: () => number,
): Promise<FileWatcherEvent | null> {
  let result: ChangeResult;
  try {
    result = key === CONFIG ? await deps.configChanged() : await deps.pluginChanged(key);
  } catch (error) {
    deps.logger.error(
      `Dev mode: reacting to a change in ${key} failed: ${(error as Error).message}`,
    );
    result = { outcome: "error" };
  }
  // A config write that changed nothing (a build's registration, already there) does not hide
  // the last real event; a plugin rebuilt to the same build does show, as `unchanged`.
  if (key === CONFIG) {
    return result.outcome === "unchanged"
      ? null
      : { kind: "config", at: clock(), outcome: result.outcome };
  }
  return { kind: "plugin", plugin: result.plugin, at: clock(), outcome: result.outcome };
}

/** Native watching whose failures hand over to a short poll, and whose return ends it. */
function nativeWatch(
  deps: DevWatcherDeps,
  poll: StampPoll,
  onEvent: (event: Deno.FsEvent) => void,
): NativeWatch {
  return createNativeWatch({
    watchFs: deps.watchFs,
    onEvent,
    onFailed(error) {
      const ms = deps.fallbackPollMs ?? FALLBACK_POLL_MS;
      deps.logger.warn(
        `Dev mode: native file watching failed (${error.message}); polling every ${ms} ms ` +
          "instead. On Linux, raising fs.inotify.max_user_watches and max_user_instances brings " +
          "it back.",
      );
      poll.start(ms);
    },
    onRestored() {
      deps.logger.info("Dev mode: native file watching works again.");
      poll.start(deps.pollMs ?? POLL_MS);
    },
  });
}

export function createDevWatcher(deps: DevWatcherDeps): DevWatcher {
  const clock = deps.clock ?? Date.now;
  const pollMs = deps.pollMs ?? POLL_MS;
  let watched: Watched = new Map();
  const stamps = new Map<string, string>();
  let lastEvent: FileWatcherEvent | null = null;
  let refreshing: Promise<void> = Promise.resolve();
  let renew = false;
  let closed = false;
  const warned = { count: 0 };

  const stampOf = (key: string) => key === CONFIG ? fileStamp(deps.configPath) : buildStamp(key);
  const debouncer = createDebouncer(deps.debounceMs ?? DEBOUNCE_MS, async (key: string) => {
    stamps.set(key, await stampOf(key)); // before acting: a write meanwhile is seen next time
    lastEvent = (await react(deps, key, clock)) ?? lastEvent;
  });
  /** The native watch missed something or lost its folder: watch again from scratch. */
  const renewWatch = () => {
    renew = true;
    void refresh();
  };
  const poll = createStampPoll({
    keys: () => [CONFIG, ...watched.keys()],
    stampOf,
    stamps,
    busy: (key) => debouncer.has(key),
    onDetect(key) {
      debouncer.trigger(key);
      renewWatch();
    },
    clock,
  });
  const native = nativeWatch(deps, poll, (event) => {
    const routed = routeEvent(event, deps.configPath, watched);
    for (const key of routed.keys) debouncer.trigger(key);
    if (routed.renew) renewWatch();
  });

  async function update() {
    const renewNow = renew; // a renewal asked for meanwhile is the next refresh's
    renew = false;
    const next = await watchTargets(capped(deps, await deps.pluginDirs(), warned));
    for (const dir of next.keys()) if (!stamps.has(dir)) stamps.set(dir, await buildStamp(dir));
    for (const key of stamps.keys()) if (key !== CONFIG && !next.has(key)) stamps.delete(key);
    if (!stamps.has(CONFIG)) stamps.set(CONFIG, await fileStamp(deps.configPath));
    if (closed) return;
    watched = next;
    native.watch([dirname(deps.configPath), ...next.values()], renewNow);
  }

  function refresh(): Promise<void> {
    refreshing = refreshing.then(update).catch((error) =>
      deps.logger.error(`Dev mode: cannot update the watched folders: ${error.message}`)
    );
    return refreshing;
  }

  poll.start(pollMs);
  return {
    refresh,
    status: () => ({
      watchedPlugins: watched.size,
      pendingPlugins: debouncer.pending((key) => key !== CONFIG),
      lastPollAt: poll.lastPollAt(),
      pollDetections: poll.detections(),
      lastEvent,
    }),
    async idle() {
      await refreshing;
      await debouncer.idle();
      await refreshing;
    },
    close() {
      closed = true;
      debouncer.close();
      poll.close();
      native.close();
    },
  };
}
