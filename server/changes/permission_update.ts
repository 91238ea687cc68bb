/**
 * Permission changes from the side panel (`config.setToolPermission`, `config.setPluginPermission`)
 * and from "always allow": checked against the tools that exist, then applied to config.json. A
 * person choosing a permission for a plugin reviews it as served now (its version and source), so
 * that is recorded.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import { BROWSER_GROUP } from "../../protocol/call_contract.ts";
import { noPluginMessage } from "../plugins/registry.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import { assertSafeKey, ownValue, reservedKeyError } from "../../protocol/safe_keys.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { reviewIdentity } from "../permissions/review.ts";

export interface PermissionTarget {
  plugin: string;
  /** Base tool name for plugin tools, the full name for browser tools; absent for a plugin. */
  tool?: string;
}

/** Why the target does not exist, or undefined when it does. */
export function permissionTargetError(
  target: PermissionTarget,
  registry: Registry,
  catalog: Catalog,
): string | undefined {
  const reserved = reservedKeyError(target.plugin, "plugin") ??
    (target.tool === undefined ? undefined : reservedKeyError(target.tool, "tool"));
  if (reserved) return `${reserved}.`;
  if (target.plugin === BROWSER_GROUP) {
    if (target.tool === undefined) return undefined;
    const tool = catalog.find(target.tool);
    return tool?.kind === "browser"
      ? undefined
      : `No browser tool "${clipForMessage(target.tool)}". Browser tools: ${
        catalog.allNames(BROWSER_GROUP).join(", ")
      }.`;
  }
  const plugin = registry.plugin(target.plugin);
  if (!plugin) {
    return noPluginMessage(clipForMessage(target.plugin), [
      ...registry.plugins.map((p) => p.name),
      BROWSER_GROUP,
    ]);
  }
  if (target.tool !== undefined && !plugin.tools.some((t) => t.baseName === target.tool)) {
    const tools = plugin.tools.map((t) => t.baseName).join(", ");
    return `Plugin "${plugin.name}" has no tool "${clipForMessage(target.tool)}" ` +
      `(tools: ${tools}). ` +
      "Use the tool's own name, without the plugin prefix.";
  }
  return undefined;
}

/**
 * Applies a permission to a config draft; `reviewed` records the plugin's version and source as
 * reviewed (grants of another reviewed identity are taken back first). The target must have passed
 * `permissionTargetError` (so no name is an Object.prototype member).
 */
export function applyPermission(
  config: HubConfig,
  target: PermissionTarget,
  permission: Permission,
  reviewed?: { version: string; sourceId: string },
): void {
  assertSafeKey(target.plugin, "plugin");
  if (target.tool !== undefined) assertSafeKey(target.tool, "tool");
  const entry = ownValue(config.permissions, target.plugin) ??
    (config.permissions[target.plugin] = { permission: "off", tools: {} });
  if (reviewed !== undefined) reviewIdentity(entry, reviewed.version, reviewed.sourceId);
  if (target.tool === undefined) entry.permission = permission;
  else entry.tools = { ...entry.tools, [target.tool]: permission };
}
