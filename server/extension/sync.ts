/** What the hub tells the extension about plugins and tools (`sync.full`, `plugin.update`). */
import type { SyncPlugin, SyncTool } from "../../protocol/events.ts";
import { VERSION } from "../../protocol/version.ts";
import type { HubConfig, Permission } from "../config/schema.ts";
import { BROWSER_GROUP, type Catalog } from "../calls/catalog.ts";
import type { RegisteredPlugin, Registry } from "../plugins/registry.ts";
import { needsReview } from "../permissions/review.ts";

export function syncPlugin(
  plugin: RegisteredPlugin,
  config: HubConfig,
  permissions: Map<string, Permission>,
): SyncPlugin {
  const entry = config.permissions[plugin.name];
  const tools: SyncTool[] = plugin.tools.map((t) => ({
    name: t.name,
    displayName: t.displayName,
    description: t.description,
    permission: permissions.get(t.name) ?? "off",
  }));
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
    permission: entry?.permission ?? "off",
    needsReview: needsReview(config, plugin),
    tools,
  };
  if (plugin.description !== undefined) synced.description = plugin.description;
  if (plugin.iconSvg !== undefined) synced.iconSvg = plugin.iconSvg;
  if (entry?.reviewedVersion !== undefined) synced.reviewedVersion = entry.reviewedVersion;
  return synced;
}

export function syncFull(
  registry: Registry,
  config: HubConfig,
  catalog: Catalog,
  skipPermissions: boolean,
) {
  // The listing is cached per registry and config, so this costs no permission work.
  const permissions = new Map(catalog.list().map((t) => [t.name, t.permission]));
  const browserTools: SyncTool[] = catalog.list(BROWSER_GROUP).map((t) => {
    const tool = catalog.find(t.name)!;
    return {
      name: t.name,
      displayName: tool.displayName,
      description: tool.description,
      permission: t.permission,
    };
  });
  return {
    hubVersion: VERSION,
    skipPermissions,
    plugins: registry.plugins.map((p) => syncPlugin(p, config, permissions)),
    browserTools,
    disabledBrowserTools: config.disabledBrowserTools,
  };
}
