/**
 * The files a running hub follows: config.json and auth.json as live files (re-read when they
 * change; a broken or deleted one keeps the last good value, so the secret never goes back to
 * "none"), and the store that writes config.json under its lock.
 */
import type { HubPaths } from "../core/config/paths.ts";
import {
  type ConfigStore,
  createConfigStore,
  parseConfigText,
} from "../core/config/config_store.ts";
import type { HubConfig } from "../core/config/schema.ts";
import { parseSecret } from "../core/config/secret.ts";
import { type LiveFile, liveFile } from "../core/config/live_file.ts";
import type { Logger } from "./log/logger.ts";

export interface HubFiles {
  config: LiveFile<HubConfig>;
  secret: LiveFile<string>;
  store: ConfigStore;
}

/** Reads config.json and auth.json now (throwing when one is missing or broken), then follows them. */
export function openHubFiles(paths: HubPaths, logger: Logger): HubFiles {
  const onError = (m: string) => logger.error(m);
  return {
    config: liveFile(paths.config, (t) => parseConfigText(paths.config, t).config, onError),
    secret: liveFile(paths.auth, (t) => parseSecret(paths.auth, t), onError),
    store: createConfigStore(paths.config, { onWarning: (m) => logger.warn(m) }),
  };
}
