/**
 * What the side panel and the service worker say to each other over one runtime port
 * (`PANEL_PORT`). The worker pushes the whole `PanelState` on connect and on every change; the
 * panel sends commands, each with a `requestId` the worker answers with a `reply` (carrying the
 * hub's answer for the plugin package commands). The panel never talks to the hub itself:
 * permission changes go through the worker's `config.*` requests, package operations through its
 * `plugin.*` requests.
 */
import type { SyncPlugin, SyncTool, TabStateChange } from "../../../protocol/events.ts";
import type { ErrorPayload } from "../../../protocol/errors.ts";
import type { Permission } from "../../../protocol/permission.ts";
import type { DebuggerMode } from "../../../protocol/debugger_mode.ts";
import type {
  InstallResult,
  PackageProgress,
  RemoveResult,
  SearchResult,
  UpdateCheck,
} from "../../../protocol/packages.ts";

export const PANEL_PORT = "hub-panel";

export type { Permission };

/** Why the extension is not connected, and what the person should do about it. */
export interface LinkProblem {
  kind:
    | "not_running" //      nothing answers on the port
    | "wrong_secret" //     the hub answers, but refuses auth.json's secret
    | "not_hub" //          what answers on the port does not prove it knows the secret (or claims to have none)
    | "version_mismatch" // hub and extension versions differ
    | "not_set_up" //       server.json / auth.json missing or broken
    | "replaced" //         another browser profile's extension holds the link
    | "other";
  /** One sentence: what is wrong. */
  message: string;
  /** One sentence: what to do. */
  fix: string;
}

export interface LinkView {
  state: "connecting" | "connected" | "disconnected";
  port?: number;
  connectedAt?: number;
  /** Set while disconnected, and when connected to a hub of another version. */
  problem?: LinkProblem;
}

/** What the hub last sent (`sync.full`); absent until the first one arrives. */
export interface HubView {
  version: string;
  skipPermissions: boolean;
  /** Skip-permissions is set by the hub's environment (HUB_DANGEROUSLY_SKIP_PERMISSIONS=1). */
  skipPermissionsForced: boolean;
  /** Default permission of the built-in browser tools (`permissions.browser.permission`). */
  browserPermission: Permission;
  plugins: SyncPlugin[];
  browserTools: SyncTool[];
  disabledBrowserTools: string[];
  /** What the last plugin update check found (the hub's or the panel's, whichever is newer). */
  updates?: UpdateCheck;
  /** Site permissions of the browser tools: the side panel's Sites section. */
  sites: SitesView;
}

/** One site rule as the Sites section lists it. */
export interface SiteRuleView {
  /** The canonical pattern (`example.com`, `*.example.com`, `127.0.0.1:8080`, an origin). */
  pattern: string;
  permission: Permission;
  /** When the rule last let a browser tool through (ms since epoch); absent: never. */
  lastUsedAt?: number;
}

/** The config's site fields (`sync.full`), with each rule's last use. */
export interface SitesView {
  /** Sorted by pattern. */
  rules: SiteRuleView[];
  /** `defaultSitePermission`: what a site no rule matches gets. */
  defaultPermission: Permission;
  /** Browser tools act only on tabs in the "hub" tab group (and tabs they open). */
  agentTabsOnly: boolean;
}

/** Chromium's debugger as the extension uses it now: the side panel's Debugger section. */
export interface DebuggerView {
  /** The mode the extension follows: the hub's `debugger` setting (`auto` until it says). */
  mode: DebuggerMode;
  /** The tabs the debugger is attached to now, in attach order. */
  attached: { tabId: number; title: string; url: string }[];
}

/** The latest `plugin.progress` of one package operation, with when it arrived. */
export interface ProgressEntry extends PackageProgress {
  receivedAt: number;
}

export interface ActivityEntry {
  /** The invocation id (also the confirmation id of an `ask` call). */
  id: string;
  tool: string;
  plugin: string;
  startedAt: number;
  state: "running" | "waiting" | "succeeded" | "failed";
  durationMs?: number;
  error?: Pick<ErrorPayload, "code" | "message">;
  /**
   * While `waiting`: the site (`app.example.com`) the call waits to be allowed on (the extension
   * answered SITE_ASK, or the hub asks the person about it).
   */
  site?: string;
}

export interface PendingConfirmation {
  id: string;
  tool: string;
  plugin: string;
  /** Display names when the hub's sync knows them. */
  toolDisplayName?: string;
  pluginDisplayName?: string;
  parameters: Record<string, unknown>;
  receivedAt: number;
  /** Milliseconds since epoch after which the hub stops waiting. */
  expiresAt: number;
  /**
   * Set when the question is about a site, not a tool: "Allow agents to use <site>?", answered
   * with Allow once, Always allow this site (a rule `auto` for it) or Deny.
   */
  site?: string;
}

export interface PanelState {
  extensionVersion: string;
  link: LinkView;
  hub?: HubView;
  /** Tab state per plugin name, as the extension sees it. */
  tabs: Record<string, TabStateChange>;
  /** Newest first, at most ACTIVITY_LIMIT. */
  activity: ActivityEntry[];
  /** Oldest first: the order they should be answered in. */
  confirmations: PendingConfirmation[];
  /** Package operations: the latest message per operation and package, newest first. */
  progress: ProgressEntry[];
  /** Absent from a worker that has no debugger sessions. */
  debugger?: DebuggerView;
}

export const ACTIVITY_LIMIT = 50;
/** Package operations whose latest progress the state keeps. */
export const PROGRESS_LIMIT = 20;

export type PanelCommand =
  | { type: "setPluginPermission"; plugin: string; permission: Permission }
  | { type: "setToolPermission"; plugin: string; tool: string; permission: Permission }
  | { type: "setSkipPermissions"; enabled: boolean }
  /** The Debugger switch: the hub's `debugger` setting (`auto` or `off`). */
  | { type: "setDebugger"; mode: DebuggerMode }
  | { type: "confirm"; id: string; decision: "allow" | "deny"; alwaysAllow?: boolean }
  /** The Sites section: sets one rule (`pattern` as the person wrote it), or removes it (null). */
  | { type: "setSitePermission"; pattern: string; permission: Permission | null }
  /** The Sites section: the default for sites without a rule, and the agentTabsOnly switch. */
  | { type: "setSiteDefaults"; defaultSitePermission?: Permission; agentTabsOnly?: boolean }
  /** Connect now: retry at once, or take the link back from another profile. */
  | { type: "reconnect" }
  /** Plugin packages on the registry; no query lists them all. */
  | { type: "searchPlugins"; query?: string }
  | { type: "installPlugin"; name: string }
  /** Installs the registry's latest version of an installed package. */
  | { type: "updatePlugin"; name: string }
  /** Uninstalls a package (or drops a local plugin) by its package or plugin name. */
  | { type: "removePlugin"; name: string }
  | { type: "checkUpdates" }
  /** Opens a local plugin's folder with the desktop's opener. */
  | { type: "openFolder"; path: string }
  /** Merged into the stored settings; a null value clears a key. */
  | { type: "setPluginSettings"; plugin: string; settings: Record<string, unknown> };

/** What an ok reply carries, per command (commands not listed answer nothing). */
export interface PanelResults {
  searchPlugins: SearchResult;
  installPlugin: InstallResult;
  updatePlugin: InstallResult;
  removePlugin: RemoveResult;
  checkUpdates: UpdateCheck;
  openFolder: { opened: string };
}

export type PanelResult<C extends PanelCommand> = C["type"] extends keyof PanelResults
  ? PanelResults[C["type"]]
  : void;

/**
 * How long the panel waits for a command's reply. Package operations run npm, which may take
 * minutes on a slow registry; the worker gives up a little earlier, so its error reaches the panel.
 */
export const REPLY_TIMEOUT_MS = 15_000;
export const PACKAGE_TIMEOUT_MS = 5 * 60_000;
export const PACKAGE_COMMANDS: ReadonlySet<PanelCommand["type"]> = new Set([
  "searchPlugins",
  "installPlugin",
  "updatePlugin",
  "removePlugin",
  "checkUpdates",
]);

/** The panel's wait for a reply to `command` (the worker's is 10 s shorter). */
export function replyTimeoutMs(command: PanelCommand): number {
  return PACKAGE_COMMANDS.has(command.type) ? PACKAGE_TIMEOUT_MS + 10_000 : REPLY_TIMEOUT_MS;
}

/**
 * A command the worker (or the hub behind it) refused: a plain Error named `CommandError` with the
 * hub's error code when it gave one. The worker posts its message and code to the panel, which
 * rejects the command's promise with the same shape.
 */
export type CommandError = Error & { code?: string };

export function commandError(message: string, code?: string): CommandError {
  const error: CommandError = new Error(message);
  error.name = "CommandError";
  if (code !== undefined) error.code = code;
  return error;
}

export function isCommandError(error: unknown): error is CommandError {
  return error instanceof Error && error.name === "CommandError";
}

/** Panel → worker. */
export interface PanelRequest {
  requestId: number;
  command: PanelCommand;
}

/** Worker → panel. */
export type PanelMessage =
  | { type: "state"; state: PanelState }
  | { type: "reply"; requestId: number; ok: true; result?: unknown }
  /** `code`: the hub's error code (`INVALID_SETTINGS`, …) when it gave one. */
  | { type: "reply"; requestId: number; ok: false; error: string; code?: string };
