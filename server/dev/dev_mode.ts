/**
 * Dev mode (`hub start --dev`, HUB_DEV=1) for one hub: the file watcher over local plugins' builds
 * and config.json, wired to the reloads. A rebuilt plugin is reloaded alone (plugin_lifecycle.ts
 * `reloadPlugin`); a config.json edit goes through config_edits.ts. The watched set follows every
 * reload. It starts once the startup discovery is done; production mode never creates it.
 */
import { discoverPlugins } from "../plugins/discover.ts";
import type { PluginHost } from "../plugins/plugin_host_interface.ts";
import type { PluginLifecycle } from "../changes/plugin_lifecycle_interface.ts";
import type { ConfigChanges } from "../changes/config_changes_interface.ts";
import type { HubFiles } from "../files/hub_files_interface.ts";
import type { Logger } from "../log/logger_interface.ts";
import { type ConfigEdits, createConfigEdits } from "./config_edits.ts";
import { createDevWatcher, type DevWatcherDeps } from "./dev_watcher.ts";
import type { DevMode } from "./dev_mode_interface.ts";

export interface DevModeDeps {
  configPath: string;
  configDir: string;
  files: HubFiles;
  plugins: Pick<PluginHost, "onChange" | "discoveredWith">;
  lifecycle: Pick<PluginLifecycle, "reload" | "reloadPlugin">;
  changes: Pick<ConfigChanges, "onAnnounce" | "announce">;
  /** The startup discovery; watching starts after it. */
  ready: Promise<unknown>;
  logger: Logger;
  clock?: () => number;
  /** Overrides for tests (native watching, intervals). */
  watcher?: Partial<DevWatcherDeps>;
}

/** The local plugin folders of `config`, loaded or not (no global packages: they are not built here). */
async function localPluginDirs(deps: DevModeDeps): Promise<string[]> {
  const found = await discoverPlugins({
    config: deps.files.config.get(),
    configDir: deps.configDir,
  });
  return found.candidates.map((c) => c.dir);
}

/** Config edits over the hub's parts; created once the startup discovery is done. */
function configEdits(deps: DevModeDeps): ConfigEdits {
  const { config } = deps.files;
  const edits = createConfigEdits({
    path: deps.configPath,
    discoveredWith: () => deps.plugins.discoveredWith(),
    reload: () => deps.lifecycle.reload(),
    announce() {
      config.refresh(); // the announcement carries the file as it is now
      deps.changes.announce("permissions");
    },
    logger: deps.logger,
  });
  deps.changes.onAnnounce((_reason, announced) => edits.announced(announced));
  return edits;
}

export function startDevMode(deps: DevModeDeps): DevMode {
  const { logger } = deps;
  let edits: ConfigEdits | undefined;
  const watcher = createDevWatcher({
    configPath: deps.configPath,
    pluginDirs: () => localPluginDirs(deps),
    async pluginChanged(dir) {
      const result = await deps.lifecycle.reloadPlugin(dir);
      if (result.kind === "full") return { outcome: "full-reload" };
      return { outcome: result.kind, plugin: result.plugin };
    },
    configChanged: async () => ({ outcome: edits ? await edits.check() : "unchanged" }),
    logger,
    clock: deps.clock,
    watchFs: deps.files.watchFs, // made in the hub's watch worker
    ...deps.watcher,
  });
  let closed = false;
  const started = deps.ready.catch(() => {}).then(() => {
    if (closed) return;
    edits = configEdits(deps);
    deps.plugins.onChange(() => void watcher.refresh());
    return watcher.refresh().then(() => {
      const s = watcher.status();
      logger.info(`Dev mode: watching ${s.watchedPlugins} local plugin(s) and ${deps.configPath}`);
    });
  });
  return {
    status: watcher.status,
    async idle() {
      await started;
      await watcher.idle();
    },
    close() {
      closed = true;
      watcher.close();
    },
  };
}
