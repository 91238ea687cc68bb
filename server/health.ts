/**
 * The `/health` payload: the facts of a running hub gathered from its parts (`createHealthReport`)
 * and built into the payload (`buildHealth`, which tests also call with facts they make up).
 */
import type {
  AuditSummary,
  DiscoveryError,
  FailedPlugin,
  FileWatcherStatus,
  HealthPayload,
  PluginDetail,
} from "../protocol/health.ts";
import { SDK_VERSION, STATE_SCHEMA_VERSION, VERSION } from "../protocol/version.ts";
import type { HubConfig } from "../core/config/schema.ts";
import type { DebuggerMode } from "../protocol/debugger_mode.ts";
import type { PluginHost } from "./plugins/plugin_host_interface.ts";
import { toPluginDetail } from "./plugins/registry.ts";
import type { TabStates } from "./plugins/tab_states_interface.ts";
import type { PluginLogs } from "./extension/plugin_logs_interface.ts";
import type { ExtensionLink } from "./ws/extension_link_interface.ts";
import type { Catalog } from "./calls/catalog_interface.ts";
import { BROWSER_GROUP } from "../protocol/call_contract.ts";
import type { AuditLog } from "./audit/audit_log_interface.ts";
import type { McpSessions } from "./mcp/sessions_interface.ts";

/** What the hub knows about itself at one moment; each subsystem contributes its part. */
export interface HealthFacts {
  mode: "dev" | "production";
  startedAt: number;
  now: number;
  skipPermissions: boolean;
  /** The config's `debugger` setting. */
  debugger?: DebuggerMode;
  extensionConnections: number;
  mcpClients: number;
  plugins: PluginDetail[];
  failedPlugins: FailedPlugin[];
  discoveryErrors: DiscoveryError[];
  browserToolNames: string[];
  disabledBrowserTools: string[];
  reloads: { count: number; lastTimestamp: number; lastDurationMs: number };
  fileWatcher?: FileWatcherStatus;
  audit: AuditSummary;
}

/** The facts of subsystems that have nothing to report: no extension, clients, plugins or calls. */
export function idleSubsystemFacts(): Omit<
  HealthFacts,
  "mode" | "startedAt" | "now" | "skipPermissions" | "reloads"
> {
  return {
    extensionConnections: 0,
    mcpClients: 0,
    plugins: [],
    failedPlugins: [],
    discoveryErrors: [],
    browserToolNames: [],
    disabledBrowserTools: [],
    fileWatcher: idleFileWatcher(),
    audit: emptyAuditSummary(),
  };
}

/** Dev mode's file watcher before it watched anything (production runs none). */
export function idleFileWatcher(): FileWatcherStatus {
  return {
    watchedPlugins: 0,
    pendingPlugins: 0,
    lastPollAt: null,
    pollDetections: 0,
    lastEvent: null,
  };
}

export function emptyAuditSummary(): AuditSummary {
  return {
    totalInvocations: 0,
    successCount: 0,
    failureCount: 0,
    last24h: { total: 0, success: 0, failure: 0 },
    avgDurationMs: 0,
  };
}

export function buildHealth(facts: HealthFacts): HealthPayload {
  const pluginToolCount = facts.plugins.reduce((sum, p) => sum + p.toolCount, 0);
  const browserToolCount = facts.browserToolNames.length;
  const payload: HealthPayload = {
    status: "ok",
    version: VERSION,
    sdkVersion: SDK_VERSION,
    mode: facts.mode,
    extensionConnected: facts.extensionConnections > 0,
    extensionConnections: facts.extensionConnections,
    mcpClients: facts.mcpClients,
    plugins: facts.plugins.length,
    pluginDetails: facts.plugins,
    failedPlugins: facts.failedPlugins,
    toolCount: pluginToolCount + browserToolCount,
    browserToolCount,
    pluginToolCount,
    browserToolNames: facts.browserToolNames,
    disabledBrowserTools: facts.disabledBrowserTools,
    skipPermissions: facts.skipPermissions,
    ...(facts.debugger ? { debugger: facts.debugger } : {}),
    uptime: Math.max(0, Math.round((facts.now - facts.startedAt) / 100) / 10),
    pid: Deno.pid,
    reloadCount: facts.reloads.count,
    lastReloadTimestamp: facts.reloads.lastTimestamp,
    lastReloadDurationMs: facts.reloads.lastDurationMs,
    stateSchemaVersion: STATE_SCHEMA_VERSION,
    discoveryErrors: facts.discoveryErrors,
    auditSummary: facts.audit,
  };
  if (facts.mode === "dev") payload.fileWatcher = facts.fileWatcher;
  return payload;
}

/** The parts of a running hub that `/health` reports on. */
export interface HealthSources {
  mode: "dev" | "production";
  clock: () => number;
  skipPermissions(): boolean;
  config(): HubConfig;
  plugins: PluginHost;
  tabs: TabStates;
  logs: PluginLogs;
  catalog: Catalog;
  link: Pick<ExtensionLink, "isConnected">;
  sessions: Pick<McpSessions, "count">;
  audit: Pick<AuditLog, "summary">;
  /** Dev mode's file watcher (absent in production mode, which runs none). */
  fileWatcher?: () => FileWatcherStatus | undefined;
}

/**
 * The `/health` payload of a running hub, read from its parts at each call; uptime counts from
 * this call, made when the hub starts.
 */
export function createHealthReport(sources: HealthSources): () => HealthPayload {
  const startedAt = sources.clock();
  return () => {
    const { plugins, tabs, logs } = sources;
    const browserToolNames = sources.catalog.allNames(BROWSER_GROUP);
    return buildHealth({
      mode: sources.mode,
      startedAt,
      now: sources.clock(),
      skipPermissions: sources.skipPermissions(),
      debugger: sources.config().debugger,
      extensionConnections: sources.link.isConnected() ? 1 : 0,
      mcpClients: sources.sessions.count(),
      plugins: plugins.registry().plugins.map((p) =>
        toPluginDetail(p, tabs.of(p.name), logs.size(p.name))
      ),
      failedPlugins: plugins.failedPlugins(),
      discoveryErrors: plugins.discoveryErrors(),
      browserToolNames,
      disabledBrowserTools: sources.config().disabledBrowserTools.filter((n) =>
        browserToolNames.includes(n)
      ),
      reloads: plugins.stats(),
      fileWatcher: sources.fileWatcher?.() ?? idleFileWatcher(),
      audit: sources.audit.summary(),
    });
  };
}
