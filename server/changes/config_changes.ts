/**
 * Changes a person or an agent makes to config.json while the hub runs (a permission from the side
 * panel, "always allow", the skip switch, a review mark), and the announcements that follow every
 * change of tools or permissions: `sync.full` and `plugins.changed` to the extension, and
 * `tools/list_changed` to MCP clients (through `onAnnounce`). Each change is written under the
 * config lock, then read back at once, so the very next call sees it.
 */
import type { HubFiles } from "../files/hub_files_interface.ts";
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import type { ExtensionLink } from "../ws/extension_link_interface.ts";
import { syncFull } from "./sync_state.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import type { UpdateCheck } from "../../protocol/packages.ts";
import { applyPermission, permissionTargetError } from "./permission_update.ts";
import { markReviewed } from "../permissions/review.ts";
import { skipsPermissions } from "../permissions/effective.ts";
import { hubError } from "../../protocol/errors.ts";
import type { AnnounceReason, ConfigChanges } from "./config_changes_interface.ts";
import { applySiteRule, siteRuleKey } from "../../core/config/site_rules.ts";

export interface ConfigChangesDeps {
  files: HubFiles;
  registry(): Registry;
  catalog: Catalog;
  link: Pick<ExtensionLink, "notify">;
  /** Whether the environment forces skipping permissions (the side panel switch cannot undo it). */
  skipForced: boolean;
  /** What the last plugin update check found (`updates` in `sync.full`). */
  updates?: () => UpdateCheck | undefined;
}

/**
 * The config change that sets (or, with null, removes) the rule for `pattern`. A pattern the hub
 * cannot read fails here, before anything is written; a rule the config refuses fails as the
 * change is written. Both are INVALID_ARGUMENTS.
 */
function siteRuleChange(
  pattern: string,
  permission: Permission | null,
): (config: HubConfig) => void {
  const rule = siteRuleKey(pattern);
  if (!rule.ok) throw hubError("INVALID_ARGUMENTS", rule.problem);
  return (c) => {
    try {
      applySiteRule(c, rule.key, permission);
    } catch (error) {
      throw hubError("INVALID_ARGUMENTS", (error as Error).message);
    }
  };
}

export function createConfigChanges(deps: ConfigChangesDeps): ConfigChanges {
  const { config, store } = deps.files;
  const listeners: ((reason: AnnounceReason, config: HubConfig) => void)[] = [];

  const state = (current = config.get()) => {
    const skip = skipsPermissions(deps.skipForced, current);
    const updates = deps.updates?.();
    return syncFull(deps.registry(), current, deps.catalog, skip, deps.skipForced, updates);
  };

  function announce(reason: AnnounceReason) {
    const current = config.get();
    deps.link.notify("sync.full", state(current));
    deps.link.notify("plugins.changed", { reason });
    for (const listener of listeners) listener(reason, current);
  }

  /** Writes a change, then makes the hub and its clients see it at once. */
  async function change(mutate: (config: HubConfig) => void) {
    await store.update(mutate);
    config.refresh();
    announce("permissions");
  }

  return {
    state: () => state(),
    announce,
    onAnnounce: (listener) => listeners.push(listener),
    async setPermission(target, permission) {
      const problem = permissionTargetError(target, deps.registry(), deps.catalog);
      if (problem) throw hubError("INVALID_ARGUMENTS", problem);
      // A person choosing a permission for a plugin reviews it as served now.
      const plugin = deps.registry().plugin(target.plugin);
      const reviewed = plugin && { version: plugin.version, sourceId: plugin.sourceId };
      await change((c) => applyPermission(c, target, permission, reviewed));
    },
    setSkipPermissions: (enabled) => change((c) => (c.skipPermissions = enabled)),
    setDebugger: (mode) => change((c) => (c.debugger = mode)),
    async setSitePermission(pattern, permission) {
      await change(siteRuleChange(pattern, permission));
    },
    setSiteDefaults: ({ defaultSitePermission, agentTabsOnly }) =>
      change((c) => {
        if (defaultSitePermission !== undefined) c.defaultSitePermission = defaultSitePermission;
        if (agentTabsOnly !== undefined) c.agentTabsOnly = agentTabsOnly;
      }),
    allowAlways: (tool) =>
      change((c) => applyPermission(c, { plugin: tool.group, tool: tool.permissionKey }, "auto")),
    async markReviewed(plugin, version, sourceId) {
      await change((c) => markReviewed(c, plugin, version, sourceId));
      return config.get();
    },
  };
}
