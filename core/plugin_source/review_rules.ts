/**
 * The pure rules of reviews (docs/decisions/007-permissions-and-reviews.md), shared by the hub
 * (which enforces them), `hub plugin list` and `hub plugin install` (which report them): whether a
 * permission entry grants anything, and whether its reviewed identity (source + version) is the
 * plugin served now.
 */
import type { PluginPermissionConfig } from "../config/schema.ts";

/** A plugin as the review rules see it. */
export interface ReviewedPlugin {
  version: string;
  /** `npm:<package>` or `local:<folder>` (source_identity.ts). */
  sourceId: string;
  /** True when this local plugin overrides a package of the same name. */
  overrides?: boolean;
}

/** Why a plugin needs review: another version, or another source, than the reviewed one. */
export type ReviewReason = "version" | "source";

/**
 * Whether anything is granted: the default or any per-tool permission is not off. Takes a
 * config.json entry, or the effective permissions the hub computed for a plugin's tools.
 */
export function grantsAnything(
  entry: Pick<PluginPermissionConfig, "permission"> & { tools?: Record<string, string> },
): boolean {
  return entry.permission !== "off" ||
    Object.values(entry.tools ?? {}).some((p) => p !== "off");
}

/** The identity serving a plugin name now: its version and source. */
export interface ServedIdentity {
  version: string;
  sourceId: string;
}

/**
 * Binds a person's grant by plugin name (made before the permission is set on `entry`) to the
 * source serving the name at that moment, `served`. Grants of another reviewed identity are taken
 * back first, and so are unbound ones when the grant is bound. With no `served` (the name is not installed, or several
 * sources claim it) the grant is unbound: no source is recorded, and whichever source serves the
 * name later starts off instead of inheriting it.
 */
export function bindGrant(entry: PluginPermissionConfig, served: ServedIdentity | undefined) {
  const other = (entry.unboundGrant === true && served !== undefined) ||
    (entry.reviewedVersion !== undefined &&
      (entry.reviewedVersion !== served?.version || entry.reviewedSource !== served?.sourceId));
  if (other) {
    entry.permission = "off";
    entry.tools = {};
  }
  delete entry.unboundGrant;
  if (served) {
    entry.reviewedVersion = served.version;
    entry.reviewedSource = served.sourceId;
  } else {
    delete entry.reviewedVersion;
    delete entry.reviewedSource;
    entry.unboundGrant = true;
  }
}

/**
 * Whether the reviewed source differs from the plugin's. A legacy entry (no recorded source)
 * counts as another source only when a local plugin overrides a package: nobody can tell which of
 * the two was reviewed. Otherwise the hub adopts the one source serving it on the next reload.
 */
export function sourceDiffers(entry: PluginPermissionConfig, plugin: ReviewedPlugin): boolean {
  return entry.reviewedSource === undefined
    ? plugin.overrides === true
    : entry.reviewedSource !== plugin.sourceId;
}

/**
 * Why the entry's reviewed identity is not this plugin (the source first, as it weighs more), or
 * undefined when it is, or when the entry records no review.
 */
export function reviewReason(
  entry: PluginPermissionConfig | undefined,
  plugin: ReviewedPlugin,
): ReviewReason | undefined {
  if (entry?.unboundGrant === true) return "source";
  if (entry?.reviewedVersion === undefined) return undefined;
  if (sourceDiffers(entry, plugin)) return "source";
  if (entry.reviewedVersion !== plugin.version) return "version";
  return undefined;
}
