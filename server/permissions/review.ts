/**
 * Review of plugin versions (docs/architecture.md, "Permissions and reviews"): a plugin's permissions hold for the version
 * that was reviewed. When another version is installed, the hub resets the plugin to `off` until
 * someone reviews it again (`plugin_inspect`, then `plugin_mark_reviewed`) and turns it back on.
 * A plugin granted a permission before any review is recorded as reviewed at its current version
 * (trust on first use), so every granted plugin is tracked from then on.
 */
import type { HubConfig, PluginPermissionConfig } from "../../core/config/schema.ts";
import { assertSafeKey, ownValue } from "../../protocol/safe_keys.ts";

export interface InstalledPlugin {
  name: string;
  version: string;
}

export interface ReviewChange {
  plugin: string;
  kind: "reset" | "recorded";
  from?: string;
  to: string;
}

function grantsAnything(entry: PluginPermissionConfig): boolean {
  return entry.permission !== "off" ||
    Object.values(entry.tools ?? {}).some((p) => p !== "off");
}

/** True when the installed version differs from the reviewed one. */
export function needsReview(config: HubConfig, plugin: InstalledPlugin): boolean {
  const reviewed = ownValue(config.permissions, plugin.name)?.reviewedVersion;
  return reviewed !== undefined && reviewed !== plugin.version;
}

/** What the policy would change; pure, so the hub can skip writing when nothing changes. */
export function reviewChanges(config: HubConfig, plugins: InstalledPlugin[]): ReviewChange[] {
  const changes: ReviewChange[] = [];
  for (const plugin of plugins) {
    const entry = ownValue(config.permissions, plugin.name);
    if (!entry) continue;
    if (entry.reviewedVersion === undefined) {
      if (grantsAnything(entry)) {
        changes.push({ plugin: plugin.name, kind: "recorded", to: plugin.version });
      }
    } else if (entry.reviewedVersion !== plugin.version && grantsAnything(entry)) {
      changes.push({
        plugin: plugin.name,
        kind: "reset",
        from: entry.reviewedVersion,
        to: plugin.version,
      });
    }
  }
  return changes;
}

/** Takes back every grant of a plugin: its default and all per-tool overrides. */
function resetGrants(entry: PluginPermissionConfig): void {
  entry.permission = "off";
  entry.tools = {};
}

/** Applies changes from `reviewChanges` to a config draft. */
export function applyReviewChanges(config: HubConfig, changes: ReviewChange[]): void {
  for (const change of changes) {
    const entry = ownValue(config.permissions, change.plugin);
    if (!entry) continue;
    if (change.kind === "recorded") entry.reviewedVersion = change.to;
    else resetGrants(entry);
  }
}

/**
 * Records `version` as reviewed. Grants made for an earlier reviewed version never carry over,
 * even if their reset was never written (a failed reload): marking reviewed grants nothing.
 */
export function markReviewed(config: HubConfig, plugin: string, version: string): void {
  assertSafeKey(plugin, "plugin");
  const entry = ownValue(config.permissions, plugin) ??
    (config.permissions[plugin] = { permission: "off", tools: {} });
  if (entry.reviewedVersion !== undefined && entry.reviewedVersion !== version) resetGrants(entry);
  entry.reviewedVersion = version;
}
