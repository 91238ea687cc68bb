/**
 * Which installed plugin packages have a newer version on the registry: `npm view <name> version`
 * for each, a few at a time. A registry that cannot be reached fails the check; a package the
 * registry does not have (unpublished, private) is skipped; other failures are named in `error`.
 */
// @ts-types="@types/semver"
import semver from "semver";
import type { AvailableUpdate, UpdateCheck } from "../../protocol/packages.ts";
import { clip } from "../../protocol/clip.ts";
import { viewVersion } from "./npm_commands.ts";
import type { PackageContext } from "./package_context.ts";
import { isPackageError, type PackageError } from "./package_error.ts";
import type { InstalledPackage } from "./installed_packages.ts";

/** npm calls running at once during a check. */
export const CHECK_CONCURRENCY = 4;

/** Runs `fn` over `items` with at most `limit` running at once; results in the items' order. */
export async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type Outcome = { latest?: string; error?: PackageError };

export async function checkForUpdates(
  ctx: PackageContext,
  installed: InstalledPackage[],
  cache: string,
): Promise<UpdateCheck> {
  ctx.progress(
    "checkUpdates",
    undefined,
    `Checking ${installed.length} plugin packages for updates`,
  );
  const outcomes = await mapLimited(installed, CHECK_CONCURRENCY, async (pkg): Promise<Outcome> => {
    try {
      return { latest: await viewVersion(ctx, pkg.name, undefined, cache) };
    } catch (error) {
      if (isPackageError(error)) return { error };
      throw error;
    }
  });
  const fatal = outcomes.find((o) =>
    o.error?.code === "REGISTRY_UNREACHABLE" || o.error?.code === "TIMEOUT"
  );
  if (fatal?.error) throw fatal.error;
  const updates: AvailableUpdate[] = [];
  const problems: string[] = [];
  installed.forEach((pkg, i) => {
    const { latest, error } = outcomes[i];
    if (error) problems.push(`${pkg.name}: ${error.message}`);
    else if (latest && semver.valid(pkg.version) && semver.gt(latest, pkg.version)) {
      updates.push({
        name: pkg.name,
        plugin: pkg.plugin,
        installedVersion: pkg.version,
        latestVersion: latest,
      });
    }
  });
  const check: UpdateCheck = { checkedAt: Date.now(), updates };
  if (problems.length > 0) {
    check.error = clip(
      `Could not check ${problems.length} package${problems.length === 1 ? "" : "s"}: ${
        problems.join(" | ")
      }`,
      600,
    );
  }
  return check;
}
