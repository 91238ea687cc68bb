/**
 * Every JSON-RPC method on `/ws` (docs/protocol.md), both directions, with its payload as a zod
 * schema. Receivers validate with these schemas; senders are typed by them. Field meanings are in
 * docs/protocol.md. Unknown fields are ignored on receipt, so either side may add fields later.
 */
import * as z from "zod";
import { type CallProgress, type CallResult, LOG_LEVELS } from "./call_contract.ts";
import {
  installResultSchema,
  packageProgressSchema,
  removeResultSchema,
  searchResultSchema,
  updateCheckSchema,
} from "./packages.ts";
import { isPlainObject } from "./plain_object.ts";
import { ERROR_CATEGORIES } from "./errors.ts";

import { permissionSchema as permission } from "./permission.ts";
import { debuggerModeSchema } from "./debugger_mode.ts";
import { MAX_SITE_PATTERN_CHARS, sitePermissionsSchema } from "./site_permissions.ts";
const tabState = z.enum(["closed", "unavailable", "ready"]);
/**
 * Settings as sent, every own key kept: zod's record drops a `__proto__` key without a word, and
 * the hub must see it to refuse it (settingsErrors checks every key).
 */
const settingsObject = z.custom<Record<string, unknown>>(isPlainObject, {
  message: "must be an object of setting keys to values",
});

export const errorPayloadSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  category: z.enum(ERROR_CATEGORIES),
  retryable: z.boolean(),
  details: z.unknown().optional(),
});

export const pluginTabSchema = z.object({
  tabId: z.number().int().min(1),
  url: z.string(),
  title: z.string(),
  ready: z.boolean(),
});

/** A tool as the extension sees it (side panel, confirmations). */
export const syncToolSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** The effective permission (skip-permissions and review resets applied). */
  permission,
  /** The tool's own setting (`permissions.<plugin>.tools.<tool>`); absent: it follows the plugin. */
  override: permission.optional(),
});

/** Everything the extension needs to inject and run one plugin. */
export const syncPluginSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  version: z.string(),
  description: z.string().optional(),
  urlPatterns: z.array(z.string()),
  excludePatterns: z.array(z.string()),
  /** File name under `<config>/extension/adapters/`; changes whenever the adapter changes. */
  adapterFile: z.string(),
  adapterHash: z.string(),
  sdkVersion: z.string(),
  settings: z.record(z.string(), z.unknown()),
  instances: z.record(z.string(), z.string()),
  iconSvg: z.string().optional(),
  permission,
  reviewedVersion: z.string().optional(),
  /** The installed version or source differs from the reviewed one: permissions were reset to off. */
  needsReview: z.boolean(),
  /**
   * Why it needs review (set with `needsReview`): "version" (another version than the reviewed
   * one) or "source" (another package or folder now serves the plugin's name).
   */
  reviewReason: z.enum(["version", "source"]).optional(),
  /**
   * Whether the extension may put the adapter into tabs: the plugin or one of its tools is not
   * `off` (and it needs no review). An `off` plugin's adapter is never injected, and is removed
   * from open tabs when the plugin is turned off.
   */
  enabled: z.boolean(),
  tools: z.array(syncToolSchema),
  /** Where the plugin comes from: a global npm package or a local folder. */
  source: z.enum(["npm", "local"]).optional(),
  /**
   * npm plugins: the package name (`hub-plugin-x`, `@scope/hub-plugin-x`), from the folder npm
   * installed, never from what the package's own package.json claims.
   */
  packageName: z.string().optional(),
  /** Local plugins: the folder (the side panel's "Open folder"). */
  dir: z.string().optional(),
  /** The plugin's settings fields (`hub.configSchema`), for the side panel's settings form. */
  configSchema: z.record(z.string(), z.unknown()).optional(),
});

/**
 * What `plugin.removeBySpecifier` takes: a package or plugin name (npm caps names at 214
 * characters), or a `localPlugins` entry, which is a path (up to 4,096 characters, the usual
 * PATH_MAX): anything longer than a name must hold a `/` or a backslash.
 */
const removeSpecifier = z.string().min(1).max(4096).refine(
  (s) => s.length <= 214 || /[\\/]/.test(s),
  "is longer than a package name (214 characters) and is no path",
);

/** `tool.dispatch`'s answer on the wire: checked to be the call contract's `CallResult`. */
export const dispatchResultSchema = z.union([
  z.object({
    ok: z.literal(true),
    value: z.unknown(),
    tabId: z.number().int().optional(),
    origin: z.string().max(2100).optional(),
  }),
  z.object({ ok: z.literal(false), error: errorPayloadSchema }),
]) satisfies z.ZodType<CallResult>;

/** Methods the hub sends to the extension. */
export const HUB_TO_EXTENSION_METHODS = {
  "sync.full": {
    type: "notification",
    params: z.object({
      hubVersion: z.string(),
      skipPermissions: z.boolean(),
      /** Skip-permissions comes from HUB_DANGEROUSLY_SKIP_PERMISSIONS=1: config cannot turn it off. */
      skipPermissionsForced: z.boolean(),
      plugins: z.array(syncPluginSchema),
      /** Every built-in browser tool, disabled ones included (see `disabledBrowserTools`). */
      browserTools: z.array(syncToolSchema),
      /** Default permission of the browser tools (`permissions.browser.permission`). */
      browserPermission: permission,
      disabledBrowserTools: z.array(z.string()),
      /** What the last plugin update check found (absent before the first one). */
      updates: updateCheckSchema.optional(),
      /**
       * The config's `debugger` (`auto` or `off`): whether the extension may attach Chromium's
       * debugger to a tab. Absent from an older hub: `auto`.
       */
      debugger: debuggerModeSchema.optional(),
      /**
       * Site permissions of the built-in browser tools (docs/security.md): canonical pattern →
       * permission. Absent from an older hub: none.
       */
      sitePermissions: sitePermissionsSchema.optional(),
      /** A site no rule matches. Absent from an older hub: `ask`. */
      defaultSitePermission: permission.optional(),
      /** Browser tools act only on tabs in the "hub" tab group (and tabs they open). */
      agentTabsOnly: z.boolean().optional(),
    }),
  },
  "plugin.progress": { type: "notification", params: packageProgressSchema },
  "plugin.update": { type: "notification", params: z.object({ plugin: syncPluginSchema }) },
  "plugin.uninstall": {
    type: "request",
    params: z.object({ plugin: z.string() }),
    result: z.object({ ok: z.boolean() }),
  },
  "plugins.changed": {
    type: "notification",
    params: z.object({ reason: z.enum(["reload", "permissions", "settings"]) }),
  },
  "tool.dispatch": {
    type: "request",
    params: z.object({
      /**
       * The call's invocation id (an `ask` call's confirmation id too): the extension shows the
       * call under it from this dispatch to its own reply; `tool.progress` names it.
       */
      dispatchId: z.string(),
      /** Name as clients call it: `<plugin>__<tool>` or a built-in name. */
      tool: z.string(),
      kind: z.enum(["plugin", "browser"]),
      /** Plugin name, or `browser`. */
      plugin: z.string(),
      /** Plugin tools: the tool's own name, as the adapter knows it. */
      baseTool: z.string().optional(),
      /** Browser tools: the extension method that runs the tool. */
      method: z.string().optional(),
      input: z.record(z.string(), z.unknown()),
      tabId: z.number().int().min(1).optional(),
      instance: z.object({ name: z.string(), url: z.string() }).optional(),
      settings: z.record(z.string(), z.unknown()).optional(),
      /**
       * Browser tools: sites (`Site.key`, as in SITE_ASK's details) the person allowed once for
       * this call after the extension answered SITE_ASK; the hub dispatches again with them.
       */
      siteGrants: z.array(z.string().max(MAX_SITE_PATTERN_CHARS)).max(8).optional(),
    }),
    result: dispatchResultSchema,
  },
  /**
   * Only for a call the hub runs itself (a management tool): a call the extension runs starts
   * with its `tool.dispatch`.
   */
  "tool.invocationStart": {
    type: "notification",
    params: z.object({
      invocationId: z.string(),
      tool: z.string(),
      plugin: z.string(),
      startedAt: z.number(),
    }),
  },
  /**
   * A call ended with an outcome the extension did not answer itself: refused before dispatch,
   * run by the hub, timed out, cancelled, or failed in the hub after the extension's reply. A
   * call that ends with the extension's reply to its `tool.dispatch` gets none.
   */
  "tool.invocationEnd": {
    type: "notification",
    params: z.object({
      invocationId: z.string(),
      tool: z.string(),
      plugin: z.string(),
      success: z.boolean(),
      durationMs: z.number(),
      error: errorPayloadSchema.optional(),
    }),
  },
  "confirmation.request": {
    type: "notification",
    params: z.object({
      /** Also the invocation id: `tool.invocationEnd` with it means the request is settled. */
      id: z.string(),
      tool: z.string(),
      plugin: z.string(),
      parameters: z.record(z.string(), z.unknown()),
      /** Milliseconds since epoch after which the hub stops waiting. */
      expiresAt: z.number(),
      /**
       * Set when the question is about a site, not a tool: "Allow agents to use <site>?" (Allow
       * once, Always allow this site, Deny). `site` is the site's key (`app.example.com`).
       */
      site: z.string().max(MAX_SITE_PATTERN_CHARS).optional(),
    }),
  },
  "extension.reload": { type: "notification", params: z.object({}) },
  pong: { type: "notification", params: z.object({ ts: z.number() }) },
} as const;

const tabStateChange = z.object({
  plugin: z.string(),
  state: tabState,
  tabs: z.array(pluginTabSchema),
});

const logEntry = z.object({
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  timestamp: z.number().optional(),
  data: z.unknown().optional(),
});

const ok = z.object({ ok: z.boolean() });

/** Methods the extension sends to the hub. */
export const EXTENSION_TO_HUB_METHODS = {
  "tab.syncAll": {
    type: "notification",
    params: z.object({ plugins: z.array(tabStateChange) }),
  },
  "tab.stateChanged": { type: "request", params: tabStateChange, result: ok },
  "tool.progress": {
    type: "notification",
    /** The call contract's `CallProgress`, for one dispatch. */
    params: z.object({
      dispatchId: z.string(),
      progress: z.number(),
      total: z.number().optional(),
      message: z.string().optional(),
    }) satisfies z.ZodType<CallProgress & { dispatchId: string }>,
  },
  "plugin.log": {
    type: "notification",
    params: z.object({
      plugin: z.string(),
      entries: z.array(logEntry).max(1000),
      /** The tab the entries came from, for the hub's per-tab rate limit. */
      tabId: z.number().int().optional(),
    }),
  },
  "config.getState": { type: "request", params: z.object({}).optional(), result: z.unknown() },
  "config.setToolPermission": {
    type: "request",
    params: z.object({ plugin: z.string(), tool: z.string(), permission }),
    result: z.unknown(),
  },
  "config.setPluginPermission": {
    type: "request",
    params: z.object({ plugin: z.string(), permission }),
    result: z.unknown(),
  },
  "config.setSkipPermissions": {
    type: "request",
    params: z.object({ enabled: z.boolean() }),
    result: z.unknown(),
  },
  /** The side panel's Debugger switch: sets the config's `debugger`. */
  "config.setDebugger": {
    type: "request",
    params: z.object({ mode: debuggerModeSchema }),
    result: z.unknown(),
  },
  /** The side panel's Sites section: one rule set (`permission`) or removed (`null`). */
  "config.setSitePermission": {
    type: "request",
    params: z.object({
      pattern: z.string().min(1).max(MAX_SITE_PATTERN_CHARS),
      permission: permission.nullable(),
    }),
    result: z.unknown(),
  },
  /** The side panel's Sites section: the default for other sites, and agentTabsOnly. */
  "config.setSiteDefaults": {
    type: "request",
    params: z.object({
      defaultSitePermission: permission.optional(),
      agentTabsOnly: z.boolean().optional(),
    }),
    result: z.unknown(),
  },
  "config.setPluginSettings": {
    type: "request",
    params: z.object({ plugin: z.string(), settings: settingsObject }),
    result: z.unknown(),
  },
  "plugin.search": {
    type: "request",
    params: z.object({ query: z.string().max(200).optional() }),
    result: searchResultSchema,
  },
  "plugin.install": {
    type: "request",
    params: z.object({ name: z.string().min(1).max(214) }),
    result: installResultSchema,
  },
  "plugin.updateFromRegistry": {
    type: "request",
    params: z.object({ name: z.string().min(1).max(214) }),
    result: installResultSchema,
  },
  "plugin.remove": {
    type: "request",
    params: z.object({ name: z.string().min(1).max(214) }),
    result: removeResultSchema,
  },
  "plugin.checkUpdates": {
    type: "request",
    params: z.object({}).optional(),
    result: updateCheckSchema,
  },
  "plugin.removeBySpecifier": {
    type: "request",
    params: z.object({ specifier: removeSpecifier }),
    result: removeResultSchema,
  },
  "folder.open": {
    type: "request",
    params: z.object({ path: z.string().min(1).max(4096) }),
    result: z.object({ opened: z.string() }),
  },
  "confirmation.response": {
    type: "notification",
    params: z.object({
      id: z.string(),
      decision: z.enum(["allow", "deny"]),
      alwaysAllow: z.boolean().optional(),
    }),
  },
  ping: { type: "notification", params: z.object({}).optional() },
} as const;

export type ServerMethod = keyof typeof HUB_TO_EXTENSION_METHODS;
export type ExtensionMethod = keyof typeof EXTENSION_TO_HUB_METHODS;

/** The methods of a table that are requests (a reply is expected). */
type RequestsOf<T extends Record<string, { type: string }>> = {
  [M in keyof T]: T[M]["type"] extends "request" ? M : never;
}[keyof T];
export type ServerRequestMethod = RequestsOf<typeof HUB_TO_EXTENSION_METHODS>;
export type ServerNotificationMethod = Exclude<ServerMethod, ServerRequestMethod>;
export type ExtensionRequestMethod = RequestsOf<typeof EXTENSION_TO_HUB_METHODS>;
export type ExtensionNotificationMethod = Exclude<ExtensionMethod, ExtensionRequestMethod>;
export type ServerParams<M extends ServerMethod> = z.infer<
  typeof HUB_TO_EXTENSION_METHODS[M]["params"]
>;
export type ExtensionParams<M extends ExtensionMethod> = z.infer<
  typeof EXTENSION_TO_HUB_METHODS[M]["params"]
>;
export type SyncPlugin = z.infer<typeof syncPluginSchema>;
export type SyncTool = z.infer<typeof syncToolSchema>;
export type DispatchParams = ServerParams<"tool.dispatch">;
/** `tool.dispatch`'s answer: the call contract's result (`dispatchResultSchema` checks its shape). */
export type DispatchResult = CallResult;
export type TabStateChange = z.infer<typeof tabStateChange>;
export type TabState = z.infer<typeof tabState>;
export type PluginLogEntry = z.infer<typeof logEntry>;
