/**
 * Review of plugins (docs/decisions/007-permissions-and-reviews.md): a plugin's permissions hold
 * for the identity that was reviewed, its source (`npm:<package>` or `local:<folder>`, see
 * core/plugin_source/source_identity.ts) and its version. When another version is installed, or another source now
 * serves the plugin's name, the hub resets the plugin to `off` until someone reviews it again
 * (`plugin_inspect`, then `plugin_mark_reviewed`) and turns it back on. A plugin granted a
 * permission before any review is recorded as reviewed as it is served now (trust on first use), so
 * every granted plugin is tracked from then on.
 *
 * A grant a person made by name while no single source served the name (`unboundGrant`, written by
 * `hub config set`) belongs to no source: the source that serves the name later starts off.
 *
 * Configs written before sources were recorded hold `reviewedVersion` alone. Such an entry is
 * bound to the source serving it when that source is the only one claiming the name and its version
 * is the reviewed one; when several sources claim the name (a local plugin overriding a package, or
 * two that were refused), nobody can tell which was reviewed, and the grant is taken back.
 */
import type { HubConfig, PluginPermissionConfig } from "../../core/config/schema.ts";
import {
  grantsAnything,
  type ReviewedPlugin,
  type ReviewReason,
  reviewReason,
  sourceDiffers,
} from "../../core/plugin_source/review_rules.ts";
import { assertSafeKey, ownValue } from "../../protocol/safe_keys.ts";

export interface InstalledPlugin extends ReviewedPlugin {
  name: string;
}

export interface ReviewChange {
  plugin: string;
  kind: "reset" | "recorded";
  from?: string;
  to: string;
  /** The source now serving the plugin (absent when no source serves it: a refused name). */
  source?: string;
  /** The reviewed source's identity, when it is another one than `source`. */
  fromSource?: string;
  /** The source changed, and the reviewed one was never recorded (a legacy version-only grant). */
  fromUnrecorded?: true;
  /** The grant was made by name while no single source served it (`unboundGrant`). */
  unbound?: true;
}

/**
 * Why the plugin needs review: its source ("source") or its version ("version") differs from the
 * reviewed one; undefined when it needs none.
 */
export function needsReview(config: HubConfig, plugin: InstalledPlugin): ReviewReason | undefined {
  return reviewReason(ownValue(config.permissions, plugin.name), plugin);
}

function changeFor(entry: PluginPermissionConfig, plugin: InstalledPlugin): ReviewChange | void {
  const identity = { plugin: plugin.name, to: plugin.version, source: plugin.sourceId };
  if (entry.unboundGrant === true) {
    // Granted while no single source served the name: never handed to the one that came later.
    if (grantsAnything(entry)) return { ...identity, kind: "reset", unbound: true };
  } else if (entry.reviewedVersion === undefined) {
    if (grantsAnything(entry)) return { ...identity, kind: "recorded" };
  } else if (reviewReason(entry, plugin) === undefined) {
    // A legacy entry (version only) of the one source serving it: bind it to that source.
    if (entry.reviewedSource === undefined) return { ...identity, kind: "recorded" };
  } else if (grantsAnything(entry)) {
    const from = { kind: "reset" as const, from: entry.reviewedVersion };
    if (!sourceDiffers(entry, plugin)) return { ...identity, ...from };
    const before = entry.reviewedSource === undefined
      ? { fromUnrecorded: true as const }
      : { fromSource: entry.reviewedSource };
    return { ...identity, ...from, ...before };
  }
}

/**
 * What the policy would change; pure, so the hub can skip writing when nothing changes.
 * `contested` are names several sources claim (all refused): a legacy grant on one is taken back.
 */
export function reviewChanges(
  config: HubConfig,
  plugins: InstalledPlugin[],
  contested: string[] = [],
): ReviewChange[] {
  const changes: ReviewChange[] = [];
  for (const plugin of plugins) {
    const entry = ownValue(config.permissions, plugin.name);
    const change = entry && changeFor(entry, plugin);
    if (change) changes.push(change);
  }
  for (const name of contested) {
    const entry = ownValue(config.permissions, name);
    if (entry?.reviewedVersion === undefined || entry.reviewedSource !== undefined) continue;
    if (!grantsAnything(entry)) continue;
    changes.push({
      plugin: name,
      kind: "reset",
      from: entry.reviewedVersion,
      to: entry.reviewedVersion,
      fromUnrecorded: true,
    });
  }
  return changes;
}

/** Takes back every grant of a plugin: its default and all per-tool overrides. */
function resetGrants(entry: PluginPermissionConfig): void {
  entry.permission = "off";
  entry.tools = {};
  delete entry.unboundGrant;
}

/** Applies changes from `reviewChanges` to a config draft. */
export function applyReviewChanges(config: HubConfig, changes: ReviewChange[]): void {
  for (const change of changes) {
    const entry = ownValue(config.permissions, change.plugin);
    if (!entry) continue;
    if (change.kind === "recorded") {
      entry.reviewedVersion = change.to;
      if (change.source !== undefined) entry.reviewedSource = change.source;
    } else resetGrants(entry);
  }
}

/**
 * Records `version` from `sourceId` as reviewed. Grants made for another reviewed identity never
 * carry over, even if their reset was never written (a failed reload): marking reviewed grants
 * nothing.
 */
export function markReviewed(
  config: HubConfig,
  plugin: string,
  version: string,
  sourceId: string,
): void {
  assertSafeKey(plugin, "plugin");
  const entry = ownValue(config.permissions, plugin) ??
    (config.permissions[plugin] = { permission: "off", tools: {} });
  reviewIdentity(entry, version, sourceId);
}

/**
 * Makes `version` from `sourceId` the entry's reviewed identity; grants of another reviewed
 * identity, or unbound ones, are taken back first.
 */
export function reviewIdentity(
  entry: PluginPermissionConfig,
  version: string,
  sourceId: string,
): void {
  const other = entry.unboundGrant === true || (entry.reviewedVersion !== undefined &&
    (entry.reviewedVersion !== version || entry.reviewedSource !== sourceId));
  if (other) resetGrants(entry);
  entry.reviewedVersion = version;
  entry.reviewedSource = sourceId;
}
