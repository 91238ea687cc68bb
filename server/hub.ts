/**
 * Assembles a hub from its parts and does nothing else. `createHub` calls one wiring function per
 * layer of server/ (docs/architecture.md, "Layers"), bottom first: the files, audit and plugins
 * (wireBase), the calls and their `/ws` link (wireCalls), config changes and plugin reloads
 * (wireChanges), the pipeline, the handling of extension messages (wireExtension), and the
 * transports (wireTransports); then it starts discovery (startHub) and, in dev mode, the watchers.
 * What the parts do lives in them. It holds no globals; everything it depends on comes in through
 * `HubOptions`, so tests build one on a temp dir. Five ties are made late, because the parts
 * talk both ways at run time or are built after their user: the link gets its handlers with
 * `setHandlers` (they answer through the link); the update check and the MCP sessions each hear
 * announcements through `onAnnounce` (an announcement carries the update findings; sessions run
 * calls that change config); the sessions hear plugin log entries through `logs.onEntry`; and
 * `/health` learns of dev mode's watchers through `watchDevMode` (dev mode waits for discovery,
 * which starts after the transports are wired).
 */
import { join } from "node:path";
import type { HubPaths } from "../core/config/paths.ts";
import type { HubConfig } from "../core/config/schema.ts";
import { openHubFiles } from "./files/hub_files.ts";
import type { Logger } from "./log/logger_interface.ts";
import { createHandler } from "./http/handler.ts";
import type { Handler } from "./net/listen.ts";
import { carriesSecret } from "./http/credentials.ts";
import { createRoutes } from "./routes.ts";
import { createPluginHost } from "./plugins/plugin_host.ts";
import type { PluginHost, ReloadSummary } from "./plugins/plugin_host_interface.ts";
import { createPluginLifecycle } from "./changes/plugin_lifecycle.ts";
import { type NpmRoot, npmRootFinder } from "./plugins/npm_root.ts";
import { createAuditFile } from "./audit/audit_file.ts";
import { createAuditLog } from "./audit/audit_log.ts";
import { createExtensionLink } from "./ws/extension_link.ts";
import { createExtensionDoor } from "./ws/extension_door.ts";
import { createTabStates } from "./plugins/tab_states.ts";
import { createPluginLogs } from "./extension/plugin_logs.ts";
import type { PluginLogs } from "./extension/plugin_logs_interface.ts";
import type { PluginLogLimits } from "./extension/plugin_log_limit.ts";
import { createExtensionHandlers, progressToExtension } from "./extension/handlers.ts";
import { createFolderOpener } from "./extension/folder_open.ts";
import { createUpdateChecker } from "./plugins/update_check.ts";
import { lazyPluginPackages } from "../core/packages/lazy_packages.ts";
import { loadValidators } from "./plugins/validators.ts";
import { loadJsonErrors } from "../core/files/json_errors.ts";
import { applyLinkPolicy } from "./extension/link_policy.ts";
import { createCatalog } from "./calls/catalog.ts";
import { createDispatches, type DispatchTimeouts } from "./calls/dispatches.ts";
import { createConfirmations } from "./calls/confirmations.ts";
import { createInFlight } from "./calls/in_flight.ts";
import { createPipeline } from "./calls/pipeline.ts";
import type { Pipeline } from "./calls/pipeline_interface.ts";
import { createMcpSessions } from "./mcp/sessions.ts";
import type { McpPath } from "./mcp/seam.ts";
import { registerBrowserTools } from "./browser_tools/mod.ts";
import { createFileSaver } from "./browser_tools/file_saver.ts";
import { createLocalFiles } from "./browser_tools/local_files.ts";
import { fileRoots, listedRoots } from "../core/plugin_source/allowed_roots.ts";
import { HUB_TOOLS as hubTools } from "./management/mod.ts";
import { skipsPermissions } from "./permissions/effective.ts";
import { createConfigChanges } from "./changes/config_changes.ts";
import { followSiteEdits } from "./changes/site_edits.ts";
import { createHealthReport } from "./health.ts";
import type { TelemetrySettings } from "../core/telemetry/settings.ts";
import { createTelemetry } from "./telemetry/telemetry.ts";
import { pluginCounts, withCallCounting } from "./telemetry/hub_hooks.ts";
import { startDevMode } from "./dev/dev_mode.ts";
import type { DevMode } from "./dev/dev_mode_interface.ts";

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
  timeouts?: DispatchTimeouts & { confirmationMs?: number };
  /** MCP session creations per minute (default 5). */
  mcpSessionLimit?: number;
  /** `sdk`: MCP sessions answer through the SDK alone, without the fast path (tests run both). */
  mcpPath?: McpPath;
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
  const base = wireBase(options);
  const calls = wireCalls(base);
  const changes = wireChanges(base, calls);
  const pipeline = wirePipeline(base, calls, changes);
  const extension = wireExtension(base, calls, changes);
  const front = wireTransports(base, calls, changes, pipeline, extension);
  const ready = startHub(base, changes);
  const dev = options.mode === "dev" ? wireDevMode(base, changes, ready) : undefined;
  front.watchDevMode(dev);
  const { files, config, secret, plugins, telemetry, audit } = base;
  return {
    handler: async (req) => {
      await ready.catch(() => {});
      return front.handler(req);
    },
    ready,
    isAuthorized: (authorization, wsProtocol) => carriesSecret(authorization, wsProtocol, secret()),
    setPort: front.setPort,
    config,
    plugins,
    pipeline,
    reload: changes.lifecycle.reload,
    async preload() {
      await Promise.all([
        front.sessions.preload(),
        loadValidators(),
        changes.packages.load(),
        loadJsonErrors(),
      ]);
    },
    async close() {
      changes.updates.stop();
      dev?.close();
      calls.link.disconnect(1001, "hub shutting down");
      await Promise.all([front.sessions.closeAll(), telemetry?.stop()]);
      extension.logs.close();
      audit.close();
      files.close();
    },
  };
}

/** The bottom layers: config and secret files, audit (and telemetry's count of it), plugins. */
function wireBase(options: HubOptions) {
  const { paths, logger, mode } = options;
  const clock = options.clock ?? Date.now;
  const files = openHubFiles(paths, logger);
  const config = () => files.config.get();
  const npmRoot = options.npmRoot ?? npmRootFinder();
  const plugins = createPluginHost({
    config,
    configDir: paths.dir,
    adaptersDir: join(paths.extensionDir, "adapters"),
    npmRoot: options.skipPackageDiscovery ? undefined : npmRoot,
    logger,
    clock,
  });
  const onError = (m: string) => logger.error(m);
  const telemetry = options.telemetry && createTelemetry({
    settings: options.telemetry,
    configDir: paths.dir,
    configEnabled: () => config().telemetry,
    mode,
    logger,
  });
  const auditLog = createAuditLog(createAuditFile(paths.auditLog, { onError }), clock);
  return {
    options,
    logger,
    clock,
    files,
    config,
    secret: () => files.secret.get(),
    npmRoot,
    plugins,
    registry: () => plugins.registry(),
    skipPermissions: () => skipsPermissions(options.skipPermissions, config()),
    tabs: createTabStates(),
    telemetry,
    audit: withCallCounting(auditLog, telemetry),
  };
}
type Base = ReturnType<typeof wireBase>;

/**
 * The calls and the `/ws` link they go out on: the catalog of every tool, the link (its
 * handlers come in wireExtension, once their parts exist), the door, dispatches and confirmations.
 */
function wireCalls(base: Base) {
  const { registry, config, skipPermissions, logger, clock, options } = base;
  const browserTools = registerBrowserTools();
  const catalog = createCatalog({ registry, config, skipPermissions, browserTools, hubTools });
  const link = createExtensionLink({}, logger);
  const timeoutMs = options.timeouts?.confirmationMs;
  return {
    catalog,
    link,
    door: createExtensionDoor(link, base.secret),
    dispatches: createDispatches(link, { ...options.timeouts, clock }),
    confirmations: createConfirmations(link, { timeoutMs, clock }),
  };
}
type Calls = ReturnType<typeof wireCalls>;

/**
 * What changes the hub's state and tells everyone: plugin packages and their update check, config
 * changes with their announcements, and plugin reloads. The update check and the config changes
 * need each other (a new finding is announced; the announcement carries the findings), so the
 * check hears announcements through `onAnnounce`.
 */
function wireChanges(base: Base, calls: Calls) {
  const { files, config, registry, logger, clock, plugins, options } = base;
  const { link, catalog, door } = calls;
  const onProgress = progressToExtension(link);
  const globalRoot = base.npmRoot;
  const packages = lazyPluginPackages({ globalRoot, store: files.store, onProgress });
  const updates = createUpdateChecker({
    packages,
    intervalMinutes: () => config().updateCheckIntervalMinutes,
    onChange: () => link.notify("sync.full", changes.state()),
    logger,
    clock,
  });
  const skipForced = options.skipPermissions;
  const changes = createConfigChanges({
    files,
    registry,
    catalog,
    link,
    skipForced,
    updates: updates.current,
  });
  changes.onAnnounce(() => updates.reconsider());
  // The extension enforces site rules: a hand edit of them is announced as soon as it is seen.
  files.onConfigTouched(followSiteEdits({ config: files.config, changes }).check);
  const lifecycle = createPluginLifecycle({ plugins, files, link, door, changes, logger });
  const settings = { registry, store: files.store, reload: lifecycle.reload };
  return { packages, updates, changes, lifecycle, settings };
}
type Changes = ReturnType<typeof wireChanges>;

/** The call pipeline: every tool call, from any transport, runs through it. */
function wirePipeline(base: Base, calls: Calls, { changes }: Changes): Pipeline {
  const { registry, config, tabs, audit, clock } = base;
  const { catalog, link, dispatches, confirmations } = calls;
  const { allowAlways, markReviewed } = changes;
  const extensionConnected = () => link.isConnected();
  return createPipeline({
    catalog,
    link,
    tabs,
    dispatches,
    confirmations,
    inFlight: createInFlight(),
    audit,
    management: { registry, config, tabs, extensionConnected, markReviewed },
    clock,
    saveFile: createFileSaver(join(base.options.paths.dir, "screenshots")),
    files: createLocalFiles({
      configDir: base.options.paths.dir,
      roots: () => fileRoots({ ...config(), configDir: base.options.paths.dir }),
      listed: () => listedRoots({ ...config(), configDir: base.options.paths.dir }),
    }),
    allowAlways,
    // "Always allow this site": the page's origin becomes an `auto` rule, announced to the extension.
    allowSite: (site) => changes.setSitePermission(site, "auto"),
  });
}

/** The handling of the extension's messages, plugin logs and what a connect or disconnect does. */
function wireExtension(
  base: Base,
  calls: Calls,
  { changes, packages, updates, settings }: Changes,
) {
  const { registry, tabs, clock, logger, options } = base;
  const { link, dispatches, confirmations } = calls;
  const logs = createPluginLogs(options.pluginLogger ?? logger, {
    hubLogger: logger,
    limits: options.pluginLogLimits,
  });
  const localFolders = () =>
    registry().plugins.filter((p) => p.source === "local").map((p) => p.dir);
  const openFolder = createFolderOpener({ localFolders });
  const deps = { tabs, logs, dispatches, confirmations, changes, link, clock };
  link.setHandlers(
    createExtensionHandlers({ ...deps, settings, packages, updates, openFolder }),
  );
  applyLinkPolicy({ link, changes, tabs, confirmations });
  return { logs };
}

/**
 * The transports: MCP sessions (they hear announcements and plugin logs, both made below them),
 * health, the REST routes and the HTTP handler with its guards.
 */
function wireTransports(
  base: Base,
  calls: Calls,
  { changes, lifecycle, settings }: Changes,
  pipeline: Pipeline,
  { logs }: { logs: PluginLogs },
) {
  const { options, logger, clock, files, audit } = base;
  const { catalog, link, door } = calls;
  const { mcpSessionLimit: sessionLimit, mcpPath } = options;
  const sessions = createMcpSessions({ catalog, pipeline, logger, clock, sessionLimit, mcpPath });
  changes.onAnnounce(() => sessions.toolsChanged());
  logs.onEntry((plugin, entry) => sessions.broadcastLog(plugin, entry));
  let port = 0;
  let dev: DevMode | undefined; // dev mode only: production runs no plugin watchers
  const { skipPermissions, config, plugins, tabs } = base;
  const health = createHealthReport({
    mode: options.mode,
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
  const { secret } = base;
  const freshSecret = files.freshSecret;
  return {
    sessions,
    handler: createHandler({ routes, secret, freshSecret, logger, clock }),
    setPort: (p: number) => (port = p),
    watchDevMode: (started: DevMode | undefined) => (dev = started),
  };
}

/**
 * Starts the startup discovery; the background update check and telemetry's start event follow it
 * (never before; without package discovery there are no plugin packages to check).
 */
function startHub(base: Base, { lifecycle, updates }: Changes): Promise<ReloadSummary> {
  const ready = lifecycle.start();
  const startUpdates = () => !base.options.skipPackageDiscovery && updates.start();
  ready.then(startUpdates, startUpdates);
  const started = () => base.telemetry?.started(pluginCounts(base.registry()));
  ready.then(started, started);
  return ready;
}

/** Dev mode's watchers: config edits and rebuilt local plugins reload what changed. */
function wireDevMode(base: Base, { lifecycle, changes }: Changes, ready: Promise<ReloadSummary>) {
  const { files, plugins, logger, clock } = base;
  const { config: configPath, dir: configDir } = base.options.paths;
  const parts = { files, plugins, lifecycle, changes, ready, logger, clock };
  return startDevMode({ configPath, configDir, ...parts });
}
