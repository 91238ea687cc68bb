/**
 * Dev mode's file watcher: each local plugin's `dist/` (its folder while `dist/` does not exist
 * yet, to see it appear) and the config directory (config.json is replaced by rename, so the
 * folder is watched and its other files ignored). One native watcher (`Deno.watchFs`) covers all
 * of them; changes are debounced per plugin and for config.json. A poll compares cheap stamps
 * (build_stamp.ts) as a safety net for missed events, and takes over at a short interval when
 * native watching fails (for example when the inotify limits are reached). The watched set follows
 * every reload, is capped, and everything closes with `close()`.
 */
import { basename, dirname, join } from "node:path";
import type { FileWatcherEvent, FileWatcherStatus } from "../../protocol/health.ts";
import type { Logger } from "../log/logger.ts";
import { createDebouncer } from "./debouncer.ts";
import { buildStamp, fileStamp } from "./build_stamp.ts";

/** The quiet time after the last change before acting: a build writes two files in a row. */
export const DEBOUNCE_MS = 150;
/** The safety-net poll while native watching works. */
export const POLL_MS = 1_000;
/** The poll when native watching failed: it is then the only source of changes. */
export const FALLBACK_POLL_MS = 250;
/** At most this many plugin folders are watched. */
export const MAX_WATCHED_PLUGINS = 64;

const CONFIG = "config";

export interface FsWatcher extends AsyncIterable<Deno.FsEvent> {
  close(): void;
}

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
  /** Native watching; default `Deno.watchFs` (non-recursive). Tests inject a failing one. */
  watchFs?: (paths: string[]) => FsWatcher;
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

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

const nativeWatch = (paths: string[]): FsWatcher => Deno.watchFs(paths, { recursive: false });

export function createDevWatcher(deps: DevWatcherDeps): DevWatcher {
  const clock = deps.clock ?? Date.now;
  const max = deps.maxPlugins ?? MAX_WATCHED_PLUGINS;
  const configDir = dirname(deps.configPath);
  const configName = basename(deps.configPath);
  /** Watched plugin folder → the path watched for it (its dist/, or itself until dist/ exists). */
  let watched = new Map<string, string>();
  const stamps = new Map<string, string>();
  let native: FsWatcher | undefined;
  let nativeKey = "";
  let nativeFailed = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let lastPollAt: number | null = null;
  let pollDetections = 0;
  let lastEvent: FileWatcherEvent | null = null;
  let refreshing: Promise<void> = Promise.resolve();
  let warnedCap = 0;
  let closed = false;

  const stampOf = (key: string) => key === CONFIG ? fileStamp(deps.configPath) : buildStamp(key);

  async function act(key: string) {
    stamps.set(key, await stampOf(key)); // before acting: a write meanwhile is seen next time
    let result: ChangeResult;
    try {
      result = key === CONFIG ? await deps.configChanged() : await deps.pluginChanged(key);
    } catch (error) {
      deps.logger.error(
        `Dev mode: reacting to a change in ${key} failed: ${(error as Error).message}`,
      );
      result = { outcome: "error" };
    }
    // A change that changed nothing (a build's no-op config write) does not hide the last real one.
    if (result.outcome === "unchanged") return;
    lastEvent = key === CONFIG
      ? { kind: "config", at: clock(), outcome: result.outcome }
      : { kind: "plugin", plugin: result.plugin, at: clock(), outcome: result.outcome };
    // dist/ may have appeared: watch it instead of the folder.
    if (
      key !== CONFIG && watched.get(key) !== join(key, "dist") &&
      await isDirectory(join(key, "dist"))
    ) {
      await refresh();
    }
  }
  const debouncer = createDebouncer(deps.debounceMs ?? DEBOUNCE_MS, act);

  function onEvent(event: Deno.FsEvent) {
    for (const path of event.paths) {
      if (dirname(path) === configDir) {
        if (basename(path) === configName) debouncer.trigger(CONFIG);
        continue;
      }
      for (const [dir, target] of watched) {
        const dist = join(dir, "dist");
        if (path === dist || (target === dist && dirname(path) === dist)) debouncer.trigger(dir);
      }
    }
  }

  let polling = false;
  async function pollOnce() {
    if (polling) return; // a slow disk: the next tick comes after this one
    polling = true;
    lastPollAt = clock();
    try {
      for (const key of [CONFIG, ...watched.keys()]) {
        if (closed || debouncer.has(key)) continue;
        const stamp = await stampOf(key);
        const known = stamps.get(key);
        if (known === undefined || known === stamp) {
          stamps.set(key, stamp);
          continue;
        }
        pollDetections++;
        debouncer.trigger(key);
      }
    } finally {
      polling = false;
    }
  }

  function startPoll(ms: number) {
    if (poll !== undefined) clearInterval(poll);
    poll = setInterval(() => void pollOnce(), ms);
  }

  function fallBack(error: Error) {
    if (nativeFailed || closed) return;
    nativeFailed = true;
    native?.close();
    native = undefined;
    const ms = deps.fallbackPollMs ?? FALLBACK_POLL_MS;
    deps.logger.warn(
      `Dev mode: native file watching failed (${error.message}); polling every ${ms} ms instead. ` +
        "On Linux, raising fs.inotify.max_user_watches and max_user_instances brings it back.",
    );
    startPoll(ms);
  }

  async function pump(watcher: FsWatcher) {
    try {
      for await (const event of watcher) onEvent(event);
    } catch (error) {
      if (watcher === native) fallBack(error as Error);
    }
  }

  function watchNative(paths: string[]) {
    const key = paths.join("\n");
    if (nativeFailed || key === nativeKey) return;
    native?.close();
    native = undefined;
    nativeKey = key;
    try {
      native = (deps.watchFs ?? nativeWatch)(paths);
    } catch (error) {
      fallBack(error as Error);
      return;
    }
    void pump(native);
  }

  async function update() {
    let dirs = await deps.pluginDirs();
    if (dirs.length > max) {
      if (warnedCap !== dirs.length) {
        deps.logger.warn(
          `Dev mode watches ${max} of ${dirs.length} local plugins; changes to the others need ` +
            `"hub-plugin build" with a running hub or POST /reload.`,
        );
        warnedCap = dirs.length;
      }
      dirs = dirs.slice(0, max);
    }
    const next = new Map<string, string>();
    for (const dir of dirs) {
      const dist = join(dir, "dist");
      next.set(dir, (await isDirectory(dist)) ? dist : dir);
      if (!stamps.has(dir)) stamps.set(dir, await buildStamp(dir));
    }
    for (const dir of stamps.keys()) if (dir !== CONFIG && !next.has(dir)) stamps.delete(dir);
    if (!stamps.has(CONFIG)) stamps.set(CONFIG, await fileStamp(deps.configPath));
    if (closed) return;
    watched = next;
    watchNative([configDir, ...next.values()]);
  }

  function refresh(): Promise<void> {
    refreshing = refreshing.then(update).catch((error) =>
      deps.logger.error(`Dev mode: cannot update the watched folders: ${error.message}`)
    );
    return refreshing;
  }

  startPoll(deps.pollMs ?? POLL_MS);
  return {
    refresh,
    status: () => ({
      watchedPlugins: watched.size,
      pendingPlugins: debouncer.pending((key) => key !== CONFIG),
      lastPollAt,
      pollDetections,
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
      clearInterval(poll);
      native?.close();
      native = undefined;
    },
  };
}
