/** The `/health` payload (docs/http.md, "`/health` payload"), shared by the server and the CLI. */
import type { DebuggerMode } from "./debugger_mode.ts";

export interface PluginTab {
  tabId: number;
  url: string;
  title: string;
  ready: boolean;
}

export interface PluginDetail {
  name: string;
  displayName: string;
  toolCount: number;
  tools: string[];
  tabState: "ready" | "unavailable" | "closed";
  tabs: PluginTab[];
  iconSvg?: string;
  source: "npm" | "local";
  sdkVersion: string | null;
  logBufferSize: number;
}

export interface FailedPlugin {
  path: string;
  error: string;
}

export interface DiscoveryError {
  source: "npm" | "local";
  specifier: string;
  error: string;
}

export interface AuditCounts {
  total: number;
  success: number;
  failure: number;
}

export interface AuditSummary {
  totalInvocations: number;
  successCount: number;
  failureCount: number;
  last24h: AuditCounts;
  avgDurationMs: number;
}

/** The last change dev mode's file watcher acted on (one that changed nothing is not shown). */
export interface FileWatcherEvent {
  kind: "plugin" | "config";
  /** The plugin's name, when known (a folder that is not a loaded plugin has none). */
  plugin?: string;
  /** When it was handled (ms since the epoch). */
  at: number;
  /** plugin: reloaded, unchanged, failed, full-reload, error; config: applied, rejected, error. */
  outcome: string;
}

export interface FileWatcherStatus {
  watchedPlugins: number;
  pendingPlugins: number;
  lastPollAt: number | null;
  pollDetections: number;
  lastEvent: FileWatcherEvent | null;
}

export interface HealthPayload {
  status: "ok";
  version: string;
  sdkVersion: string;
  mode: "dev" | "production";
  extensionConnected: boolean;
  extensionConnections: number;
  mcpClients: number;
  plugins: number;
  pluginDetails: PluginDetail[];
  failedPlugins: FailedPlugin[];
  /**
   * `pluginToolCount + browserToolCount`: the tools plugins and the browser provide. The hub's own
   * management tools are not counted (docs/decisions/056-health-tool-count.md).
   */
  toolCount: number;
  /** Every registered browser tool, disabled ones included. */
  browserToolCount: number;
  pluginToolCount: number;
  browserToolNames: string[];
  disabledBrowserTools: string[];
  skipPermissions: boolean;
  /** The config's `debugger` (`auto` or `off`): whether the extension may attach Chromium's debugger. */
  debugger?: DebuggerMode;
  /** Seconds since the server started. */
  uptime: number;
  /** The server's process id: lets `hub stop` check that a pid is this config dir's hub. */
  pid: number;
  reloadCount: number;
  lastReloadTimestamp: number;
  lastReloadDurationMs: number;
  stateSchemaVersion: number;
  discoveryErrors: DiscoveryError[];
  /** Present in dev mode only. */
  fileWatcher?: FileWatcherStatus;
  auditSummary: AuditSummary;
}
