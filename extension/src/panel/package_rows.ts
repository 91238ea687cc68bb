/**
 * What the side panel shows about plugin packages, as plain data: a search result's rows (with
 * what is installed now, which the hub's plugin list knows better than the search answer), the
 * update available to an installed plugin, and the progress lines of running operations. No DOM
 * here, so it is unit-tested.
 */
// Two functions, not the whole package: the panel bundle stays small.
import semverGt from "semver/functions/gt.js";
import semverValid from "semver/functions/valid.js";
import type { SyncPlugin } from "../../../protocol/events.ts";
import type {
  AvailableUpdate,
  PackageOperation,
  SearchResult,
  UpdateCheck,
} from "../../../protocol/packages.ts";
import type { ProgressEntry } from "../shared/panel_messages.ts";

export interface ResultRow {
  /** The package name, which Install sends. */
  name: string;
  version: string;
  description?: string;
  author?: string;
  official: boolean;
  /** The version installed now, if any. */
  installedVersion?: string;
  /** The installed plugin's name (its card in the panel), when the hub lists it. */
  plugin?: string;
  /** `install`: not installed; `update`: an older version is; `installed`: up to date. */
  action: "install" | "update" | "installed";
}

/** A newer `latest` than `installed`; versions that are not semver count as different. */
function isNewer(latest: string, installed: string): boolean {
  if (semverValid(latest) && semverValid(installed)) return semverGt(latest, installed);
  return latest !== installed;
}

/** The rows of a search answer, with the installed versions of the plugins the hub has now. */
export function resultRows(result: SearchResult, plugins: SyncPlugin[]): ResultRow[] {
  return result.packages.map((p) => {
    const plugin = plugins.find((q) => q.packageName === p.name);
    const installedVersion = plugin?.version ?? p.installedVersion;
    const action = installedVersion === undefined
      ? "install"
      : isNewer(p.version, installedVersion)
      ? "update"
      : "installed";
    return {
      name: p.name,
      version: p.version,
      official: p.official,
      action,
      ...(p.description ? { description: p.description } : {}),
      ...(p.author ? { author: p.author } : {}),
      ...(installedVersion !== undefined ? { installedVersion } : {}),
      ...(plugin ? { plugin: plugin.name } : {}),
    };
  });
}

/** What the last check says about one installed plugin, if an update is available. */
export function updateFor(
  plugin: SyncPlugin,
  check: UpdateCheck | undefined,
): AvailableUpdate | undefined {
  const found = check?.updates.find((u) =>
    u.plugin === plugin.name || (plugin.packageName !== undefined && u.name === plugin.packageName)
  );
  // A check from before the update that installed it is stale.
  return found && isNewer(found.latestVersion, plugin.version) ? found : undefined;
}

/** The name the hub knows a plugin's package by: npm plugins by package, local ones by name. */
export function packageNameOf(plugin: SyncPlugin): string {
  return plugin.packageName ?? plugin.name;
}

/** The verb of an operation, for progress and result lines. */
const OPERATION_WORDS: Record<PackageOperation, string> = {
  search: "Searching",
  install: "Installing",
  update: "Updating",
  remove: "Removing",
  checkUpdates: "Checking for updates",
};

export interface ProgressFilter {
  operations?: PackageOperation[];
  /** Only progress about these package names. */
  names?: string[];
  /** Only entries received at or after this time (the start of the panel's own request). */
  since?: number;
  /** Finished operations too (their last line), not only running ones. */
  includeDone?: boolean;
}

/** The progress entries that match `filter`, newest first. */
export function progressOf(entries: ProgressEntry[], filter: ProgressFilter = {}): ProgressEntry[] {
  return entries.filter((e) =>
    (filter.includeDone || !e.done) &&
    (!filter.operations || filter.operations.includes(e.operation)) &&
    (!filter.names || (e.name !== undefined && filter.names.includes(e.name))) &&
    (filter.since === undefined || e.receivedAt >= filter.since)
  );
}

/** One line for a progress entry: "Installing hub-plugin-x: Downloading 1.2.0". */
export function progressText(entry: ProgressEntry): string {
  const what = entry.name ? `${OPERATION_WORDS[entry.operation]} ${entry.name}` : "";
  return what ? `${what}: ${entry.message}` : entry.message;
}

/** "Checked 3 min ago: 1 update available" style summary of the last update check. */
export function updatesSummary(check: UpdateCheck | undefined, ago: (at: number) => string) {
  if (!check || check.checkedAt === 0) return "Not checked for updates yet.";
  const when = `Checked ${ago(check.checkedAt)}`;
  if (check.error) return `${when}: the check failed (${check.error}).`;
  const n = check.updates.length;
  return n === 0
    ? `${when}: every plugin package is up to date.`
    : `${when}: ${n} update${n === 1 ? "" : "s"} available.`;
}
