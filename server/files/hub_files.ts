/**
 * The files a running hub follows: config.json and auth.json as live files (a broken or deleted
 * one keeps the last good value, so the secret never goes back to "none"), and the store that
 * writes config.json under its lock. A request costs no file system call: one native watcher over
 * the two folders tells the live files when to look again, and without events they look at most
 * every LIVE_FILE_MAX_AGE_MS (100 ms). The hub's own writes call `refresh()` and apply at once; a
 * credential that does not match, and the `/auth/challenge` proof, use `freshSecret()`, so a new
 * secret is accepted at once while the old one is refused within that bound. `freshSecret()` looks
 * at most once per LIVE_FILE_FRESH_GAP_MS (10 ms) for all callers together, so a flood of refused
 * credentials (checked before any rate limit) costs at most about 100 `stat`s a second.
 */
import type { HubPaths } from "../../core/config/paths.ts";
import { createConfigStore, parseConfigText } from "../../core/config/config_store.ts";
import { parseSecret } from "../../core/config/secret.ts";
import { MAX_AUTH_FILE_BYTES, MAX_CONFIG_FILE_BYTES } from "../../core/config/file_limits.ts";
import {
  LIVE_FILE_MAX_AGE_MS,
  liveFile,
  type LiveFileOptions,
} from "../../core/files/live_file.ts";
import {
  type FilesWatch,
  watchFiles,
  type WatchFilesOptions,
} from "../../core/files/watch_files.ts";
import { createWatchWorker } from "../../core/files/safe_watch.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { HubFiles } from "./hub_files_interface.ts";

export interface HubFilesOptions {
  /** Native watching (tests inject a failing one); default a watch worker of these files' own. */
  watchFs?: WatchFilesOptions["watchFs"];
  live?: Omit<LiveFileOptions, "maxBytes">;
}

/** Reads config.json and auth.json now (throwing when one is missing or broken), then follows them. */
export function openHubFiles(
  paths: HubPaths,
  logger: Logger,
  options: HubFilesOptions = {},
): HubFiles {
  const onError = (m: string) => logger.error(m);
  const maxAge = options.live?.maxAgeMs ?? LIVE_FILE_MAX_AGE_MS;
  const config = liveFile(
    paths.config,
    (t) => parseConfigText(paths.config, t).config,
    onError,
    { ...options.live, maxBytes: MAX_CONFIG_FILE_BYTES },
  );
  const secret = liveFile(paths.auth, (t) => parseSecret(paths.auth, t), onError, {
    ...options.live,
    maxBytes: MAX_AUTH_FILE_BYTES,
  });
  const configListeners: (() => void)[] = [];
  const configTouched = () => {
    config.touched();
    for (const listener of configListeners) listener();
  };
  const worker = options.watchFs ? undefined : createWatchWorker();
  const watchFs = options.watchFs ?? worker!.watchFs;
  const startWatch = () =>
    watchFiles(
      [paths.config, paths.auth],
      (path) => (path === paths.config ? configTouched() : secret.touched()),
      {
        watchFs,
        onError: (m) =>
          logger.debug(`${m}; config.json and auth.json are looked at every ${maxAge} ms instead.`),
      },
    );
  // Native watchers live in a worker (safe_watch.ts); the watch starts once the worker answers,
  // so its start-up stays off the hub's thread. Meanwhile the files are looked at by time, and a
  // change made before the watch began is looked for once it has.
  let watch: FilesWatch | undefined;
  let closed = false;
  if (!worker) watch = startWatch();
  else {
    void worker.ready().then(() => {
      if (closed) return;
      watch = startWatch();
      configTouched();
      secret.touched();
    });
  }
  return {
    config,
    secret,
    store: createConfigStore(paths.config, { onWarning: (m) => logger.warn(m) }),
    freshSecret: secret.fresh,
    watchFs,
    onConfigTouched: (listener) => void configListeners.push(listener),
    close() {
      closed = true;
      watch?.close();
      worker?.terminate();
    },
  };
}
