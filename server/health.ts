/** Builds the `/health` payload from the live facts of a running hub. */
import type {
  AuditSummary,
  DiscoveryError,
  FailedPlugin,
  FileWatcherStatus,
  HealthPayload,
  PluginDetail,
} from "../protocol/health.ts";
import { SDK_VERSION, STATE_SCHEMA_VERSION, VERSION } from "../protocol/version.ts";

/** What the hub knows about itself at one moment; each subsystem contributes its part. */
export interface HealthFacts {
  mode: "dev" | "production";
  startedAt: number;
  now: number;
  skipPermissions: boolean;
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
  return { watchedPlugins: 0, pendingPlugins: 0, lastPollAt: null, pollDetections: 0 };
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
