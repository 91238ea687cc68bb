/**
 * What the hub's parts need of the files a running hub follows: config.json and auth.json as live
 * files, the config store, the fresh secret, native watching. Declared apart from the implementation
 * (./hub_files.ts), so changes/ and dev/ depend on this shape only.
 */
import type { ConfigStore } from "../../core/config/config_store.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { LiveFile } from "../../core/files/live_file.ts";
import type { WatchFs } from "../../core/files/safe_watch.ts";

export interface HubFiles {
  config: LiveFile<HubConfig>;
  secret: LiveFile<string>;
  store: ConfigStore;
  /**
   * The secret as auth.json is now (one `stat`, at most one per 10 ms across callers): for a
   * refused credential and the challenge.
   */
  freshSecret(): string;
  /**
   * Native watching through the hub's watch worker (safe_watch.ts), for dev mode too; it ends with
   * `close()`.
   */
  watchFs: WatchFs;
  /**
   * Calls `listener` each time the watcher says config.json may have changed, after the live
   * config was told to look again (so `config.get()` inside it sees the file as it is now). Not
   * called for changes seen only by time, without native watching.
   */
  onConfigTouched(listener: () => void): void;
  /**
   * Stops watching and ends the watch worker (the hub's close, after dev mode's). The files still
   * answer, looking at the disk by time.
   */
  close(): void;
}
