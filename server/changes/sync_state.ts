/** What the hub tells the extension about plugins and tools (`sync.full`, `plugin.update`). */
import type { SyncPlugin, SyncTool } from "../../protocol/events.ts";
import type { UpdateCheck } from "../../protocol/packages.ts";
import { VERSION } from "../../protocol/version.ts";
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import { BROWSER_GROUP } from "../../protocol/call_contract.ts";
import type { RegisteredPlugin, Registry } from "../plugins/registry_interface.ts";
import { needsReview } from "../permissions/review.ts";
import { grantsAnything } from "../../core/plugin_source/review_rules.ts";

function withOverride(tool: SyncTool, override: Permission | undefined): SyncTool {
  return override === undefined ? tool : { ...tool, override };
}

export function syncPlugin(
  plugin: RegisteredPlugin,
  config: HubConfig,
  permissions: Map<string, Permission>,
): SyncPlugin {
  const entry = config.permissions[plugin.name];
  const tools: SyncTool[] = plugin.tools.map((t) =>
    withOverride({
      name: t.name,
      displayName: t.displayName,
      description: t.description,
      permission: permissions.get(t.name) ?? "off",
    }, entry?.tools?.[t.baseName])
  );
  const reason = needsReview(config, plugin);
  const permission = entry?.permission ?? "off";
  // Injected only when it is reviewed and something of it is allowed (effective permissions: a
  // stale override of a tool it no longer has allows nothing).
  const effective = Object.fromEntries(tools.map((t) => [t.name, t.permission]));
  const enabled = reason === undefined && grantsAnything({ permission, tools: effective });
  const synced: SyncPlugin = {
    name: plugin.name,
    displayName: plugin.displayName,
    version: plugin.version,
    urlPatterns: plugin.urlPatterns,
    excludePatterns: plugin.excludePatterns,
    adapterFile: plugin.adapterFile,
    adapterHash: plugin.adapterHash,
    sdkVersion: plugin.sdkVersion,
    settings: plugin.settings,
    instances: plugin.instances,
    permission,
    needsReview: reason !== undefined,
    ...(reason !== undefined ? { reviewReason: reason } : {}),
    enabled,
    tools,
  };
  if (plugin.description !== undefined) synced.description = plugin.description;
  if (plugin.iconSvg !== undefined) synced.iconSvg = plugin.iconSvg;
  if (entry?.reviewedVersion !== undefined) synced.reviewedVersion = entry.reviewedVersion;
  return { ...synced, ...origin(plugin) };
}

/** Where the plugin comes from: the package to update or remove, or the folder to open. */
function origin(plugin: RegisteredPlugin): Partial<SyncPlugin> {
  const fields: Partial<SyncPlugin> = { source: plugin.source };
  if (plugin.source === "npm") fields.packageName = plugin.packageName;
  else fields.dir = plugin.dir;
  if (plugin.configSchema !== undefined) fields.configSchema = plugin.configSchema;
  return fields;
}

export function syncFull(
  registry: Registry,
  config: HubConfig,
  catalog: Catalog,
  skipPermissions: boolean,
  skipPermissionsForced = false,
  updates?: UpdateCheck,
) {
  // The listing is cached per registry and config, so this costs no permission work.
  const permissions = new Map(catalog.list().map((t) => [t.name, t.permission]));
  const browser = config.permissions[BROWSER_GROUP];
  // Disabled browser tools too: the side panel shows them, marked as disabled by config.
  const browserTools: SyncTool[] = catalog.allNames(BROWSER_GROUP).map((name) => {
    const tool = catalog.find(name)!;
    return withOverride({
      name,
      displayName: tool.displayName,
      description: tool.description,
      permission: catalog.permission(tool),
    }, browser?.tools?.[name]);
  });
  return {
    hubVersion: VERSION,
    skipPermissions,
    skipPermissionsForced,
    plugins: registry.plugins.map((p) => syncPlugin(p, config, permissions)),
    browserTools,
    browserPermission: browser?.permission ?? "off",
    disabledBrowserTools: config.disabledBrowserTools,
    ...(updates ? { updates } : {}),
    debugger: config.debugger,
    sitePermissions: config.sitePermissions,
    defaultSitePermission: config.defaultSitePermission,
    agentTabsOnly: config.agentTabsOnly,
  };
}
