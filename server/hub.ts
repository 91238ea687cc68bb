/**
 * Assembles a hub from its parts: config store, secret, plugins, the extension link, the call
 * pipeline, MCP sessions, audit and routes. It holds no globals; everything it depends on comes in
 * through `HubOptions`, so tests build one on a temp dir.
 */
import { join } from "node:path";
import type { HubPaths } from "../core/config/paths.ts";
import { createConfigStore, parseConfigText } from "../core/config/config_store.ts";
import type { HubConfig } from "../core/config/schema.ts";
import { parseSecret } from "../core/config/secret.ts";
import { liveFile } from "../core/config/live_file.ts";
import type { Logger } from "./log/logger.ts";
import { createHandler, type Handler } from "./http/handler.ts";
import { HttpError } from "./http/http_error.ts";
import { createRoutes } from "./routes.ts";
import { createPluginHost, type PluginHost, type ReloadSummary } from "./plugins/plugin_host.ts";
import { type NpmRoot, npmRootFinder } from "./plugins/npm_root.ts";
import { updatePluginSettings } from "./plugins/settings_update.ts";
import { createAuditFile } from "./audit/audit_file.ts";
import { createAuditLog } from "./audit/audit_log.ts";
import { createExtensionLink, type ExtensionHandlers } from "./extension/link.ts";
import { CLOSE_SECRET_ROTATED } from "../protocol/rpc.ts";
import { createTabStates } from "./extension/tab_states.ts";
import { createPluginLogs } from "./extension/plugin_logs.ts";
import { createExtensionHandlers } from "./extension/handlers.ts";
import { syncFull } from "./extension/sync.ts";
import { upgradeExtensionSocket } from "./extension/ws_upgrade.ts";
import { createCatalog } from "./calls/catalog.ts";
import { createDispatcher, type DispatcherOptions } from "./calls/dispatcher.ts";
import { createConfirmations } from "./calls/confirmations.ts";
import { createInFlight } from "./calls/in_flight.ts";
import { createPipeline, type Pipeline } from "./calls/pipeline.ts";
import { createMcpSessions } from "./mcp/sessions.ts";
import { outcomeResult } from "./mcp/mcp_server.ts";
import { registerBrowserTools } from "./browser_tools/mod.ts";
import { createFileSaver } from "./browser_tools/file_saver.ts";
import { HUB_TOOLS } from "./management/mod.ts";
import type { ManagementContext } from "./management/hub_tool.ts";
import { applyPermission, permissionTargetError } from "./permissions/permission_update.ts";
import { applyReviewChanges, markReviewed, reviewChanges } from "./permissions/review.ts";
import { hubHealth } from "./hub_health.ts";
import { challengeProof } from "../protocol/challenge.ts";
import { carriesSecret } from "./http/conn_trust.ts";

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
  /** Closes MCP sessions and the extension link, and writes pending audit entries. */
  close(): Promise<void>;
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
  const skipPermissions = () => options.skipPermissions || config.get().skipPermissions;
  const catalog = createCatalog({
    registry: () => plugins.registry(),
    config: () => config.get(),
    skipPermissions,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
  const handlers: ExtensionHandlers = {};
  const link = createExtensionLink(handlers, logger);
  const tabs = createTabStates();
  const logs = createPluginLogs(logger);
  const dispatcher = createDispatcher(link, { ...options.timeouts, clock });
  const confirmations = createConfirmations(link, {
    timeoutMs: options.timeouts?.confirmationMs,
    clock,
  });
  const audit = createAuditLog(createAuditFile(paths.auditLog, { onError }), clock);
  const sessions = createMcpSessions({
    catalog,
    get pipeline() {
      return pipeline;
    },
    logger,
    clock,
    sessionLimit: options.mcpSessionLimit,
  });
  logs.onEntry((plugin, entry) => sessions.broadcastLog(plugin, entry));

  /** The `sync.full` payload, which is also the side panel's state (`config.getState`). */
  const syncState = () =>
    syncFull(plugins.registry(), config.get(), catalog, skipPermissions(), options.skipPermissions);

  /** Tells the extension and MCP clients that tools or permissions changed. */
  function announce(reason: "reload" | "permissions") {
    link.notify("sync.full", syncState());
    link.notify("plugins.changed", { reason });
    sessions.toolsChanged();
  }

  /** Writes a permission change, then makes the hub and its clients see it at once. */
  async function changeConfig(mutate: (c: HubConfig) => void) {
    await store.update(mutate);
    config.refresh();
    announce("permissions");
  }

  /** Resets permissions of plugins whose version changed since their review (docs/architecture.md, "Permissions and reviews"). */
  async function enforceReview() {
    const changes = reviewChanges(config.get(), plugins.registry().plugins);
    if (changes.length === 0) return;
    await store.update((c) => applyReviewChanges(c, changes));
    config.refresh();
    for (const c of changes.filter((c) => c.kind === "reset")) {
      logger.warn(
        `Plugin "${c.plugin}" changed from version ${c.from} to ${c.to}: its permissions are ` +
          "off until it is reviewed again (plugin_inspect, plugin_mark_reviewed) and turned on.",
      );
    }
  }

  const management: ManagementContext = {
    registry: () => plugins.registry(),
    config: () => config.get(),
    tabs,
    extensionConnected: () => link.isConnected(),
    async markReviewed(plugin, version) {
      await changeConfig((c) => markReviewed(c, plugin, version));
      return config.get();
    },
  };

  const pipeline = createPipeline({
    catalog,
    link,
    tabs,
    dispatcher,
    confirmations,
    inFlight: createInFlight(),
    audit,
    management,
    clock,
    saveFile: createFileSaver(join(paths.dir, "screenshots")),
    allowAlways: (tool) =>
      changeConfig((c) =>
        applyPermission(c, { plugin: tool.group, tool: tool.permissionKey }, "auto")
      ),
  });

  let port = 0;
  /** The secret the extension connected with; a reload after a rotation closes its socket. */
  let linkSecret: string | undefined;
  const startedAt = clock();
  const ready = plugins.load().then(async (summary) => {
    await enforceReview();
    logger.info(`Loaded ${summary.plugins} plugin(s) in ${summary.durationMs} ms`);
    return summary;
  });
  ready.catch((e) => logger.error(`Plugin discovery failed: ${(e as Error).message}`));

  async function reload() {
    try {
      config.refresh();
      secret.refresh();
      const before = plugins.registry().plugins.map((p) => p.name);
      const summary = await plugins.reload();
      await enforceReview();
      uninstallGone(before);
      if (link.isConnected() && secret.get() !== linkSecret) {
        link.disconnect(CLOSE_SECRET_ROTATED, "secret rotated");
      }
      announce("reload");
      logger.info(`Reloaded: ${summary.plugins} plugin(s) in ${summary.durationMs} ms`);
      return summary;
    } catch (error) {
      logger.error(`Reload failed: ${(error as Error).message}`);
      throw new HttpError(500, "RELOAD_FAILED", `Reload failed: ${(error as Error).message}`);
    }
  }

  /** Tells the extension to take out the adapters of plugins a reload removed. */
  function uninstallGone(before: string[]) {
    if (!link.isConnected()) return; // it gets the new list with sync.full on connect
    const now = new Set(plugins.registry().plugins.map((p) => p.name));
    for (const plugin of before.filter((name) => !now.has(name))) {
      link.request("plugin.uninstall", { plugin }).catch((error) =>
        logger.warn(`The extension did not remove plugin "${plugin}": ${error.message}`)
      );
    }
  }

  const settingsDeps = { registry: () => plugins.registry(), store, reload };
  Object.assign(
    handlers,
    createExtensionHandlers({
      tabs,
      logs,
      dispatcher,
      confirmations,
      state: syncState,
      async setPermission(target, permission) {
        const problem = permissionTargetError(target, plugins.registry(), catalog);
        if (problem) throw new Error(problem);
        const version = plugins.registry().plugin(target.plugin)?.version;
        await changeConfig((c) => applyPermission(c, target, permission, version));
      },
      setSkipPermissions: (enabled) => changeConfig((c) => (c.skipPermissions = enabled)),
      setPluginSettings: (plugin, settings) =>
        updatePluginSettings({ plugin, settings }, settingsDeps),
      pong: () => link.notify("pong", { ts: clock() }),
    }),
  );
  link.onConnect(() => link.notify("sync.full", syncState()));
  link.onDisconnect(() => {
    tabs.clear();
    confirmations.failAll("the connection closed");
  });

  const routes = createRoutes({
    health: () =>
      hubHealth({
        mode: options.mode,
        startedAt,
        now: clock(),
        skipPermissions: skipPermissions(),
        plugins,
        tabs,
        logs,
        catalog,
        config: config.get(),
        extensionConnected: link.isConnected(),
        mcpClients: sessions.count(),
        audit: audit.summary(),
      }),
    wsUrl: () => `ws://127.0.0.1:${port}/ws`,
    reload,
    listTools: (plugin) => {
      const unknown = plugin === undefined ? undefined : catalog.groupError(plugin);
      if (unknown) throw new HttpError(404, "PLUGIN_NOT_FOUND", unknown);
      return catalog.list(plugin);
    },
    async callTool(name, args, { signal, badRequest }) {
      const outcome = await pipeline.call({ name, args, signal, badRequest });
      return {
        status: outcome.ok ? 200 : outcome.error.httpStatus,
        result: outcomeResult(outcome),
      };
    },
    updatePluginSettings: (body) => updatePluginSettings(body, settingsDeps),
    audit: (query) => audit.query(query),
    mcp: (req, mode) => sessions.handle(req, mode),
    connectExtension(req) {
      const { socket, response } = upgradeExtensionSocket(req);
      linkSecret = secret.get();
      link.attach(socket);
      return response;
    },
    reloadExtension: () => link.notify("extension.reload", {}),
    // The port this hub listens on goes into the proof, so a relayed challenge does not match.
    challengeProof(nonce) {
      if (port === 0) {
        throw new HttpError(503, "NOT_LISTENING", "The hub is still starting; try again.");
      }
      return challengeProof(secret.get(), nonce, port);
    },
  });
  const handler = createHandler({ routes, secret: () => secret.get(), logger, clock });

  return {
    handler: async (req) => {
      await ready.catch(() => {});
      return handler(req);
    },
    ready,
    isAuthorized: (authorization, wsProtocol) =>
      carriesSecret(authorization, wsProtocol, secret.get()),
    setPort: (p) => (port = p),
    config: () => config.get(),
    plugins,
    pipeline,
    reload,
    async close() {
      link.disconnect(1001, "hub shutting down");
      await sessions.closeAll();
      await audit.flush();
    },
  };
}
