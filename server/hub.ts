/**
 * Assembles a hub from its parts: config store, secret, plugins and routes. It holds no globals;
 * everything it depends on comes in through `HubOptions`, so tests build one on a temp dir.
 */
import { join } from "node:path";
import type { HubPaths } from "./config/paths.ts";
import { createConfigStore, parseConfigText } from "./config/config_store.ts";
import type { HubConfig } from "./config/schema.ts";
import { parseSecret } from "./config/secret.ts";
import { liveFile } from "./config/live_file.ts";
import type { Logger } from "./log/logger.ts";
import { createHandler, type Handler } from "./http/handler.ts";
import { HttpError } from "./http/http_error.ts";
import { buildHealth, idleSubsystemFacts } from "./health.ts";
import { createRoutes } from "./routes.ts";
import { createPluginHost, type PluginHost, type ReloadSummary } from "./plugins/plugin_host.ts";
import { type NpmRoot, npmRootFinder } from "./plugins/npm_root.ts";
import { toPluginDetail } from "./plugins/registry.ts";
import { listPluginTools } from "./plugins/tool_listing.ts";
import { updatePluginSettings } from "./plugins/settings_update.ts";

export interface HubOptions {
  paths: HubPaths;
  logger: Logger;
  mode: "dev" | "production";
  skipPermissions: boolean;
  /** Do not look for globally installed plugin packages (HUB_SKIP_PKG_DISCOVERY=1). */
  skipPackageDiscovery?: boolean;
  /** Where global packages live; default runs `npm root -g` once. */
  npmRoot?: NpmRoot;
  clock?: () => number;
}

export interface Hub {
  /** Answers requests; the first ones wait until the startup plugin discovery is done. */
  handler: Handler;
  /** Resolves when the startup plugin discovery is done. */
  ready: Promise<ReloadSummary>;
  /** Tells the hub the port it listens on (known only after binding, e.g. with port 0). */
  setPort(port: number): void;
  /** The current config; follows changes to config.json (a broken edit keeps the last good one). */
  config(): HubConfig;
  plugins: PluginHost;
  /** Re-reads config and secret and rediscovers plugins. */
  reload(): Promise<ReloadSummary>;
}

export function createHub(options: HubOptions): Hub {
  const { paths, logger } = options;
  const clock = options.clock ?? Date.now;
  const onError = (m: string) => logger.error(m);
  const config = liveFile(paths.config, (t) => parseConfigText(paths.config, t).config, onError);
  // The secret never goes back to "none": a deleted or broken auth.json keeps the last good one.
  const secret = liveFile(paths.auth, (t) => parseSecret(paths.auth, t), onError);
  const store = createConfigStore(paths.config, { onWarning: (m) => logger.warn(m) });
  const plugins = createPluginHost({
    config: () => config.get(),
    configDir: paths.dir,
    adaptersDir: join(paths.extensionDir, "adapters"),
    npmRoot: options.skipPackageDiscovery ? undefined : (options.npmRoot ?? npmRootFinder()),
    logger,
    clock,
  });
  let port = 0;
  const startedAt = clock();
  const ready = plugins.load();
  ready.then(
    (s) => logger.info(`Loaded ${s.plugins} plugin(s) in ${s.durationMs} ms`),
    (e) => logger.error(`Plugin discovery failed: ${(e as Error).message}`),
  );

  async function reload() {
    try {
      config.refresh();
      secret.refresh();
      const summary = await plugins.reload();
      logger.info(`Reloaded: ${summary.plugins} plugin(s) in ${summary.durationMs} ms`);
      return summary;
    } catch (error) {
      logger.error(`Reload failed: ${(error as Error).message}`);
      throw new HttpError(500, "RELOAD_FAILED", `Reload failed: ${(error as Error).message}`);
    }
  }

  const routes = createRoutes({
    // Extension link, MCP sessions, browser tools and audit do not exist in this version yet,
    // so they truly have nothing to report.
    health: () => {
      const registry = plugins.registry();
      return buildHealth({
        ...idleSubsystemFacts(),
        mode: options.mode,
        startedAt,
        now: clock(),
        skipPermissions: options.skipPermissions,
        reloads: plugins.stats(),
        plugins: registry.plugins.map(toPluginDetail),
        failedPlugins: plugins.failedPlugins(),
        discoveryErrors: plugins.discoveryErrors(),
      });
    },
    wsUrl: () => `ws://127.0.0.1:${port}/ws`,
    reload,
    listTools: (plugin) => {
      const registry = plugins.registry();
      if (plugin !== undefined && plugin !== "browser" && !registry.plugin(plugin)) {
        const known = registry.plugins.map((p) => p.name).join(", ") || "none";
        throw new HttpError(404, "PLUGIN_NOT_FOUND", `No plugin "${plugin}" (plugins: ${known}).`);
      }
      return listPluginTools(registry, config.get(), options.skipPermissions, plugin);
    },
    updatePluginSettings: (body) =>
      updatePluginSettings(body, { registry: () => plugins.registry(), store, reload }),
  });
  const handler = createHandler({ routes, secret: () => secret.get(), logger, clock });

  return {
    handler: async (req) => {
      await ready.catch(() => {});
      return handler(req);
    },
    ready,
    setPort: (p) => (port = p),
    config: () => config.get(),
    plugins,
    reload,
  };
}
