/**
 * `hub config set <key> [value]`: turns a key and value into a validated change of the config.
 * Pure (no I/O), so every key and every bad value is unit-tested.
 */
import { resolve } from "node:path";
import {
  type HubConfig,
  PLUGIN_NAME_PATTERN,
  type PluginPermissionConfig,
  RESERVED_PLUGIN_NAMES,
} from "../../core/config/schema.ts";
import { isPermission, type Permission, PERMISSIONS } from "../../protocol/permission.ts";
import { BROWSER_GROUP, TOOL_NAME_SEPARATOR, toolName } from "../../protocol/call_contract.ts";
import { resolvePluginPath } from "../../core/config/paths.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { parsePort } from "../../core/config/port.ts";
import { BROWSER_TOOLS } from "../../server/mod.ts";
import { ownValue, reservedKeyError } from "../../protocol/safe_keys.ts";
import { DEBUGGER_MODES, isDebuggerMode } from "../../protocol/debugger_mode.ts";
import { bindGrant, type ServedIdentity } from "../../core/plugin_source/review_rules.ts";
import { describeSource } from "../../core/plugin_source/source_identity.ts";
import { parseSiteKey, SITE_KEYS } from "./site_keys.ts";

export const SETTABLE_KEYS = [
  "tool-permission.<plugin>.<tool>  off|ask|auto",
  "plugin-permission.<plugin>       off|ask|auto",
  "port                             1-65535",
  "updateCheckIntervalMinutes       <minutes>  (0 turns the plugin update check off)",
  "debugger                         auto|off  (off: the extension never attaches Chromium's debugger)",
  "localPlugins.add                 <path>   (--force: allow a path that does not exist)",
  "localPlugins.remove              <path>",
  "disabledBrowserTools.add         <browser tool name>  (hide and refuse it)",
  "disabledBrowserTools.remove      <browser tool name>",
  "setting.<plugin>.<key>           <value>  (JSON or text; empty string removes the key)",
  ...SITE_KEYS,
];

export interface SetContext {
  /** Where relative paths given on the command line resolve from. */
  cwd: string;
  configDir: string;
  force: boolean;
  isDirectory(path: string): boolean;
  /**
   * For a permission key: the source serving its plugin now (servedPlugin), which a grant binds
   * to; absent when no single source serves the name, and the grant is stored unbound.
   */
  served?: ServedIdentity;
}

export interface ConfigChange {
  apply(config: HubConfig): void;
  /** A sentence for the user: what was set. */
  summary: string;
}

export function parseSetCommand(key: string, value: string | undefined, ctx: SetContext) {
  const site = parseSiteKey(key, value);
  if (site) return site;
  const parts = key.split(".");
  const head = parts[0];
  if (head === "tool-permission" && parts.length === 3) {
    return toolPermission(parts[1], parts[2], need(key, value), ctx.served);
  }
  if (head === "plugin-permission" && parts.length === 2) {
    return pluginPermission(parts[1], need(key, value), ctx.served);
  }
  if (key === "port") {
    const port = parsePort(need(key, value), "port");
    return change(`port = ${port}`, (c) => (c.port = port));
  }
  if (key === "updateCheckIntervalMinutes") return updateInterval(need(key, value));
  if (key === "debugger") return debuggerMode(need(key, value));
  if (key === "localPlugins.add") return addLocalPlugin(need(key, value), ctx);
  if (key === "localPlugins.remove") return removeLocalPlugin(need(key, value), ctx);
  if (key === "disabledBrowserTools.add" || key === "disabledBrowserTools.remove") {
    return disabledBrowserTool(key.endsWith(".add"), need(key, value));
  }
  if (head === "setting" && parts.length >= 3) {
    return setting(parts[1], parts.slice(2).join("."), need(key, value));
  }
  throw new UserError(
    `Unknown config key "${key}". Keys you can set:\n  ${SETTABLE_KEYS.join("\n  ")}`,
  );
}

function change(summary: string, apply: (config: HubConfig) => void): ConfigChange {
  return { summary, apply };
}

function need(key: string, value: string | undefined): string {
  if (value === undefined) throw new UserError(`"hub config set ${key}" needs a value.`);
  return value;
}

function permissionValue(value: string): Permission {
  if (isPermission(value)) return value;
  throw new UserError(`"${value}" is not a permission: use one of ${PERMISSIONS.join(", ")}.`);
}

/** Refuses names of Object.prototype members as keys of config objects. */
function checkKey(key: string, what: string): void {
  const problem = reservedKeyError(key, what);
  if (problem) throw new UserError(`${problem}.`);
}

function checkPluginName(name: string, allowBrowser: boolean): void {
  if (allowBrowser && name === BROWSER_GROUP) return;
  checkKey(name, "plugin");
  if ((RESERVED_PLUGIN_NAMES as readonly string[]).includes(name)) {
    throw new UserError(
      `"${name}" is reserved and is not a plugin name` +
        (allowBrowser ? `; built-in browser and extension tools use "${BROWSER_GROUP}".` : "."),
    );
  }
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    throw new UserError(
      `"${name}" is not a plugin name: use lowercase letters, digits and single hyphens ` +
        `(for example "my-plugin")${
          allowBrowser ? `, or "${BROWSER_GROUP}" for the built-in tools` : ""
        }.`,
    );
  }
}

/**
 * The plugin a key grants a permission to (not the built-in "browser" group, not "off"): the one
 * whose serving source `SetContext.served` must name.
 */
export function grantedPlugin(key: string, value: string | undefined): string | undefined {
  const parts = key.split(".");
  const permissionKey = (parts[0] === "tool-permission" && parts.length === 3) ||
    (parts[0] === "plugin-permission" && parts.length === 2);
  if (!permissionKey || parts[1] === BROWSER_GROUP || value === "off") return undefined;
  return parts[1];
}

function toolPermission(
  plugin: string,
  tool: string,
  value: string,
  served: ServedIdentity | undefined,
): ConfigChange {
  checkPluginName(plugin, true);
  checkKey(tool, "tool");
  // Any separator is refused (`__x` too: no tool can have that name); the last part is the
  // suggestion.
  if (tool.includes(TOOL_NAME_SEPARATOR)) {
    throw new UserError(
      `Use the tool's base name, not the prefixed one: "${
        tool.split(TOOL_NAME_SEPARATOR).pop()
      }" ` +
        `instead of "${tool}".`,
    );
  }
  if (!/^[A-Za-z0-9_-]+$/.test(tool)) {
    throw new UserError(`"${tool}" is not a tool name: use letters, digits, "_" and "-".`);
  }
  const permission = permissionValue(value);
  const name = plugin === BROWSER_GROUP ? tool : toolName(plugin, tool);
  return change(`tool permission of ${name} = ${permission}${boundText(plugin, served)}`, (c) => {
    const entry = ownValue(c.permissions, plugin) ?? { permission: "off", tools: {} };
    if (plugin !== BROWSER_GROUP) grantedByPerson(entry, permission, served);
    entry.tools[tool] = permission;
    c.permissions[plugin] = entry;
  });
}

function pluginPermission(
  plugin: string,
  value: string,
  served: ServedIdentity | undefined,
): ConfigChange {
  checkPluginName(plugin, true);
  const permission = permissionValue(value);
  return change(
    `permission of plugin ${plugin} = ${permission}${boundText(plugin, served)}`,
    (c) => {
      const entry = ownValue(c.permissions, plugin) ?? { permission: "off", tools: {} };
      if (plugin !== BROWSER_GROUP) grantedByPerson(entry, permission, served);
      entry.permission = permission;
      c.permissions[plugin] = entry;
    },
  );
}

/** What the summary adds about the source the grant was bound to (or that it was not). */
function boundText(plugin: string, served: ServedIdentity | undefined): string {
  if (plugin === BROWSER_GROUP) return "";
  if (served) return ` (for ${describeSource(served.sourceId)}, version ${served.version})`;
  return ` (not bound to a source: no single installed source serves "${plugin}" now, so ` +
    "whichever source serves it later starts off; install it, then set this again or allow it " +
    "in the side panel)";
}

/**
 * A person granting a permission reviews the plugin as served at that moment (`served`): the
 * grant is bound to that source and version (grants of another identity are taken back first), or
 * stored unbound when no single source serves the name. Turning something off binds nothing.
 */
function grantedByPerson(
  entry: PluginPermissionConfig,
  permission: Permission,
  served: ServedIdentity | undefined,
): void {
  if (permission === "off") return;
  bindGrant(entry, served);
}

function addLocalPlugin(path: string, ctx: SetContext): ConfigChange {
  const absolute = resolve(ctx.cwd, path);
  if (!ctx.force && !ctx.isDirectory(absolute)) {
    throw new UserError(
      `${absolute} is not an existing folder. Check the path, or add it anyway with --force.`,
    );
  }
  return change(`added ${absolute} to localPlugins`, (c) => {
    const known = c.localPlugins.some((p) => resolvePluginPath(p, ctx.configDir) === absolute);
    if (!known) c.localPlugins.push(absolute);
  });
}

function removeLocalPlugin(path: string, ctx: SetContext): ConfigChange {
  const absolute = resolve(ctx.cwd, path);
  return change(`removed ${absolute} from localPlugins`, (c) => {
    const kept = c.localPlugins.filter((p) =>
      p !== path && resolvePluginPath(p, ctx.configDir) !== absolute
    );
    if (kept.length === c.localPlugins.length) {
      throw new UserError(
        `${path} is not in localPlugins. Current entries: ${
          c.localPlugins.length ? c.localPlugins.join(", ") : "(none)"
        }.`,
      );
    }
    c.localPlugins = kept;
  });
}

function setting(plugin: string, key: string, raw: string): ConfigChange {
  checkPluginName(plugin, false);
  checkKey(key, "setting");
  if (raw === "") {
    return change(`removed setting ${plugin}.${key}`, (c) => {
      const entry = ownValue(c.settings, plugin);
      if (!entry) return;
      delete entry[key];
      if (Object.keys(entry).length === 0) delete c.settings[plugin];
    });
  }
  const value = parseSettingValue(raw);
  return change(`setting ${plugin}.${key} = ${JSON.stringify(value)}`, (c) => {
    c.settings[plugin] = { ...ownValue(c.settings, plugin), [key]: value };
  });
}

/** JSON when the text is JSON (numbers, booleans, objects such as URL instance maps), else text. */
export function parseSettingValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function disabledBrowserTool(add: boolean, name: string): ConfigChange {
  const known = BROWSER_TOOLS.map((t) => t.name);
  // Removing an unknown name is allowed: it cleans up an entry of an older hub version.
  if (add && !known.includes(name)) {
    throw new UserError(`"${name}" is not a browser tool. Browser tools: ${known.join(", ")}.`);
  }
  return change(`${name} ${add ? "disabled" : "enabled again"}`, (c) => {
    const rest = c.disabledBrowserTools.filter((n) => n !== name);
    c.disabledBrowserTools = add ? [...rest, name] : rest;
  });
}

/** Minutes between plugin update checks: a whole number, 0 turns the check off. */
function updateInterval(value: string) {
  const minutes = Number(value.trim());
  if (!/^\d{1,6}$/.test(value.trim()) || !Number.isSafeInteger(minutes)) {
    throw new UserError(
      `updateCheckIntervalMinutes must be a whole number of minutes (0 turns the check off), ` +
        `not "${value.slice(0, 40)}". Example: hub config set updateCheckIntervalMinutes 60`,
    );
  }
  const summary = minutes === 0
    ? "updateCheckIntervalMinutes = 0 (plugin update checks are off)"
    : `updateCheckIntervalMinutes = ${minutes}`;
  return change(summary, (c) => (c.updateCheckIntervalMinutes = minutes));
}

/** Whether the extension may attach Chromium's debugger to tabs: `auto` or `off`. */
function debuggerMode(value: string): ConfigChange {
  const mode = value.trim();
  if (!isDebuggerMode(mode)) {
    throw new UserError(
      `debugger must be ${DEBUGGER_MODES.join(" or ")}, not "${value.slice(0, 40)}": "auto" ` +
        "attaches Chromium's debugger to a tab when a tool needs it (trusted clicks and keys, " +
        'dialogs, PDFs) and "off" never attaches. Example: hub config set debugger off',
    );
  }
  const summary = mode === "off"
    ? "debugger = off (tools use DOM events where they can; the others fail with DEBUGGER_OFF)"
    : "debugger = auto (attached to a tab only while a tool needs it)";
  return change(summary, (c) => (c.debugger = mode));
}
