/**
 * Assembles a hub from its parts and does nothing else: config and secret files, plugins, the
 * extension link, the call pipeline, MCP sessions, audit, health and routes. What the parts do
 * lives in them (reloads and reviews in plugins/plugin_lifecycle.ts, config changes and their
 * announcements in config_changes.ts, what a connect or disconnect of the extension does in
 * extension/link_policy.ts, REST mapping in routes.ts). It holds no globals; everything
 * it depends on comes in through `HubOptions`, so tests build one on a temp dir. The parts are made
 * in dependency order; the two late links are explicit: the extension link gets its handlers with
 * `setHandlers`, and MCP sessions hear announcements through `onAnnounce`.
 */
import { join } from "node:path";
import type { HubPaths } from "../core/config/paths.ts";
import type { HubConfig } from "../core/config/schema.ts";
import { openHubFiles } from "./files/hub_files.ts";
import type { Logger } from "./log/logger.ts";
import { createHandler, type Handler } from "./http/handler.ts";
import { carriesSecret } from "./http/credentials.ts";
import { createRoutes } from "./routes.ts";
import { createPluginHost, type PluginHost, type ReloadSummary } from "./plugins/plugin_host.ts";
import { createPluginLifecycle } from "./changes/plugin_lifecycle.ts";
import { type NpmRoot, npmRootFinder } from "./plugins/npm_root.ts";
import { createAuditFile } from "./audit/audit_file.ts";
import { createAuditLog } from "./audit/audit_log.ts";
import { createExtensionLink } from "./ws/extension_channel.ts";
import { createExtensionDoor } from "./ws/extension_door.ts";
import { createTabStates } from "./plugins/tab_states.ts";
import { createPluginLogs } from "./extension/plugin_logs.ts";
import type { PluginLogLimits } from "./extension/plugin_log_limit.ts";
import { createExtensionHandlers, progressToExtension } from "./extension/handlers.ts";
import { createFolderOpener } from "./extension/folder_open.ts";
import { createUpdateChecker } from "./plugins/update_check.ts";
import { lazyPluginPackages } from "../core/packages/lazy_packages.ts";
import { loadValidators } from "./plugins/validators.ts";
import { loadJsonErrors } from "../core/files/json_errors.ts";
import { applyLinkPolicy } from "./extension/channel_policy.ts";
import { createCatalog } from "./calls/catalog.ts";
import { createDispatcher, type DispatcherOptions } from "./calls/dispatcher.ts";
import { createConfirmations } from "./calls/confirmations.ts";
import { createInFlight } from "./calls/in_flight.ts";
import { createPipeline, type Pipeline } from "./calls/pipeline.ts";
import { createMcpSessions } from "./mcp/sessions.ts";
import { registerBrowserTools } from "./browser_tools/mod.ts";
import { createFileSaver } from "./browser_tools/file_saver.ts";
import { HUB_TOOLS as hubTools } from "./management/mod.ts";
import { skipsPermissions } from "./permissions/effective.ts";
import { createConfigChanges } from "./changes/config_changes.ts";
import { createHealthReport } from "./health.ts";
import type { TelemetrySettings } from "../core/telemetry/settings.ts";
import { createTelemetry } from "./telemetry/telemetry.ts";
import { pluginCounts, withCallCounting } from "./telemetry/hub_hooks.ts";
import { type DevMode, startDevMode } from "./dev/dev_mode.ts";

export interface HubOptions {
  paths: HubPaths;
  logger: Logger;
  /** Writes the plugins' log lines (`plugins.log`); default `logger`. */
  pluginLogger?: Logger;
  /** Rate limits for plugin log entries; default PLUGIN_LOG_LIMITS (tests lift them). */
  pluginLogLimits?: PluginLogLimits;
  mode: "dev" | "production";
  skipPermissions: boolean;
  /** Do not look for globally installed plugin packages (HUB_SKIP_PKG_DISCOVERY=1). */
  skipPackageDiscovery?: boolean;
  /** Anonymous telemetry (docs/telemetry.md), as the environment set it; absent = none at all. */
  telemetry?: TelemetrySettings;
  /** Where global packages live; default runs `npm root -g` once. */
  npmRoot?: NpmRoot;
  clock?: () => number;
  /** Call timeouts (tests shorten them). */
  timeouts?: DispatcherOptions & { confirmationMs?: number };
  /** MCP session creations per minute (default 5). */
  mcpSessionLimit?: number;
}

export interface Hub {
  /** Answers requests; the first ones wait until the startup plugin discovery is done. */
  handler: Handler;
  /** Resolves when the startup plugin discovery is done. */
  ready: Promise<ReloadSummary>;
  /** Whether these header values carry the current secret (Bearer, or the `/ws` subprotocol). */
  isAuthorized(authorization?: string, wsProtocol?: string): boolean;
  /** Tells the hub the port it listens on (known only after binding, e.g. with port 0). */
  setPort(port: number): void;
  /** The current config; follows changes to config.json (a broken edit keeps the last good one). */
  config(): HubConfig;
  plugins: PluginHost;
  pipeline: Pipeline;
  /** Re-reads config and secret and rediscovers plugins. */
  reload(): Promise<ReloadSummary>;
  /**
   * Imports what start-up left out (the MCP SDK, ajv, the package module, jsonc-parser for JSON
   * errors). Called once the hub listens: start is faster, and the code is in memory before an
   * update can replace its files on disk (the npm package's chunks are named by their content).
   */
  preload(): Promise<void>;
  /** Closes MCP sessions and the extension link, and writes pending audit entries. */
  close(): Promise<void>;
}

export function createHub(options: HubOptions): Hub {
  const { paths, logger, mode } = options;
  const clock = options.clock ?? Date.now;
  const skipForced = options.skipPermissions;
  const files = openHubFiles(paths, logger);
  const config = () => files.config.get();
  const secret = () => files.secret.get();
  const npmRoot = options.npmRoot ?? npmRootFinder();
  const plugins = createPluginHost({
    config,
    configDir: paths.dir,
    adaptersDir: join(paths.extensionDir, "adapters"),
    npmRoot: options.skipPackageDiscovery ? undefined : npmRoot,
    logger,
    clock,
  });
  const registry = () => plugins.registry();
  const skipPermissions = () => skipsPermissions(skipForced, config());
  const browserTools = registerBrowserTools();
  const catalog = createCatalog({ registry, config, skipPermissions, browserTools, hubTools });

  const link = createExtensionLink({}, logger); // handlers below, once their parts exist
  const door = createExtensionDoor(link, secret);
  const tabs = createTabStates();
  const logs = createPluginLogs(options.pluginLogger ?? logger, {
    hubLogger: logger,
    limits: options.pluginLogLimits,
  });
  const dispatcher = createDispatcher(link, { ...options.timeouts, clock });
  const timeoutMs = options.timeouts?.confirmationMs;
  const confirmations = createConfirmations(link, { timeoutMs, clock });
  const onError = (m: string) => logger.error(m);
  const telemetry = options.telemetry && createTelemetry({
    settings: options.telemetry,
    configDir: paths.dir,
    configEnabled: () => config().telemetry,
    mode,
    logger,
  });
  const auditLog = createAuditLog(createAuditFile(paths.auditLog, { onError }), clock);
  const audit = withCallCounting(auditLog, telemetry);
  const onProgress = progressToExtension(link);
  const packages = lazyPluginPackages({ globalRoot: npmRoot, store: files.store, onProgress });
  const updates = createUpdateChecker({
    packages,
    intervalMinutes: () => config().updateCheckIntervalMinutes,
    onChange: () => link.notify("sync.full", changes.state()),
    logger,
    clock,
  });
  const changes = createConfigChanges({
    files,
    registry,
    catalog,
    link,
    skipForced,
    updates: updates.current,
  });
  changes.onAnnounce(() => updates.reconsider());
  const lifecycle = createPluginLifecycle({ plugins, files, link, door, changes, logger });
  const { allowAlways, markReviewed } = changes;
  const extensionConnected = () => link.isConnected();
  const pipeline = createPipeline({
    catalog,
    link,
    tabs,
    dispatcher,
    confirmations,
    inFlight: createInFlight(),
    audit,
    management: { registry, config, tabs, extensionConnected, markReviewed },
    clock,
    saveFile: createFileSaver(join(paths.dir, "screenshots")),
    allowAlways,
  });
  const sessionLimit = options.mcpSessionLimit;
  const sessions = createMcpSessions({ catalog, pipeline, logger, clock, sessionLimit });
  changes.onAnnounce(() => sessions.toolsChanged());
  logs.onEntry((plugin, entry) => sessions.broadcastLog(plugin, entry));

  const settings = { registry, store: files.store, reload: lifecycle.reload };
  const localFolders = () =>
    registry().plugins.filter((p) => p.source === "local").map((p) => p.dir);
  link.setHandlers(
    createExtensionHandlers({
      tabs,
      logs,
      dispatcher,
      confirmations,
      changes,
      link,
      clock,
      settings,
      packages,
      updates,
      openFolder: createFolderOpener({ localFolders }),
    }),
  );
  applyLinkPolicy({ link, changes, tabs, confirmations });

  let port = 0;
  let dev: DevMode | undefined; // dev mode only: production runs no watchers
  const health = createHealthReport({
    mode,
    clock,
    skipPermissions,
    config,
    plugins,
    tabs,
    logs,
    catalog,
    link,
    sessions,
    audit,
    fileWatcher: () => dev?.status(),
  });
  const routes = createRoutes({
    health,
    port: () => port,
    secret: files.freshSecret, // the challenge proves the secret as auth.json is now
    reload: lifecycle.reload,
    catalog,
    pipeline,
    settings,
    audit,
    mcp: sessions,
    extension: door,
    link,
  });
  const freshSecret = files.freshSecret;
  const handler = createHandler({ routes, secret, freshSecret, logger, clock });
  const ready = lifecycle.start();
  // The background update check starts once discovery is done, never before; without package
  // discovery there are no plugin packages to check.
  const startUpdates = () => !options.skipPackageDiscovery && updates.start();
  ready.then(startUpdates, startUpdates);
  const started = () => telemetry?.started(pluginCounts(registry()));
  ready.then(started, started);
  if (mode === "dev") {
    const { config: configPath, dir: configDir } = paths;
    const parts = { files, plugins, lifecycle, changes, ready, logger, clock };
    dev = startDevMode({ configPath, configDir, ...parts });
  }

  return {
    handler: async (req) => {
      await ready.catch(() => {});
      return handler(req);
    },
    ready,
    isAuthorized: (authorization, wsProtocol) => carriesSecret(authorization, wsProtocol, secret()),
    setPort: (p) => (port = p),
    config,
    plugins,
    pipeline,
    reload: lifecycle.reload,
    async preload() {
      await Promise.all([
        sessions.preload(),
        loadValidators(),
        packages.load(),
        loadJsonErrors(),
      ]);
    },
    async close() {
      updates.stop();
      dev?.close();
      link.disconnect(1001, "hub shutting down");
      await Promise.all([sessions.closeAll(), telemetry?.stop()]);
      logs.close();
      audit.close();
      files.close();
    },
  };
}
