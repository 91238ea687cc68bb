/**
 * Installing a plugin package so that a failed or invalid install leaves the previous version
 * working: resolve the name (a shorthand tries the official package, then the community one), refuse
 * it when one of its dependencies would come from outside the registry (git, URL, file), let npm
 * download that exact version into a staging prefix, check it is a hub plugin this hub can load,
 * and only then install the same version (from the npm cache just filled) where the hub finds it.
 * No install links the package's `bin` or `man` entries; the result lists the ones it declared.
 */
import { join } from "node:path";
import type { InstallResult, PackageOperation } from "../../protocol/packages.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { installGlobal, NO_LINKS, viewDependencies, viewVersion } from "./npm_commands.ts";
import { checkDependencies } from "./dependency_check.ts";
import type { PackageContext } from "./package_context.ts";
import { packageError } from "./package_error.ts";
import type { PackageSpec } from "./package_names.ts";
import { checkPluginPackage } from "./plugin_check.ts";
import { globalRootOf, prefixOfGlobalRoot } from "./global_root.ts";
import { readInstalled } from "./installed_packages.ts";

export interface ResolvedPackage {
  name: string;
  version: string;
}

/** The first candidate the registry has, with the version its range (or latest) resolves to. */
export async function resolveSpec(
  ctx: PackageContext,
  operation: PackageOperation,
  input: string,
  spec: PackageSpec,
  cache: string,
): Promise<ResolvedPackage> {
  ctx.progress(operation, input, `Looking up ${spec.candidates.join(", then ")} on the registry`);
  // Both names are looked up at once; the first one published wins (official before community).
  const versions = await Promise.allSettled(
    spec.candidates.map((name) => viewVersion(ctx, name, spec.range, cache)),
  );
  for (const [i, outcome] of versions.entries()) {
    if (outcome.status === "rejected") throw outcome.reason;
    if (outcome.value !== undefined) return { name: spec.candidates[i], version: outcome.value };
  }
  const names = spec.candidates.length > 1
    ? `neither ${spec.candidates[0]} nor ${spec.candidates[1]} is`
    : `${spec.candidates[0]} is not`;
  throw packageError(
    "PACKAGE_NOT_FOUND",
    `No plugin package "${clipForMessage(input)}": ${names} published on the npm registry. ` +
      `"hub plugin search" lists the plugin packages there; check the name, or npm's registry ` +
      `("npm config get registry").`,
  );
}

/**
 * Installs `target` (already resolved) globally, staged and checked first. Runs serialized with
 * every other operation on the same package. Progress is reported under `input`, the name the
 * operation was asked for.
 */
export function installResolved(
  ctx: PackageContext,
  operation: PackageOperation,
  input: string,
  target: ResolvedPackage,
  work: string,
): Promise<InstallResult> {
  const label = `${target.name}@${target.version}`;
  const cache = join(work, "cache");
  return ctx.serialize(target.name, async () => {
    const root = await ctx.globalRoot();
    const prefix = prefixOfGlobalRoot(root);
    const previous = await readInstalled(join(root, target.name));
    const staging = join(work, "staging");
    ctx.progress(operation, input, `Downloading ${label} from the registry`);
    checkDependencies(label, await viewDependencies(ctx, target.name, target.version, cache));
    await installGlobal(ctx, {
      prefix: staging,
      name: target.name,
      version: target.version,
      cache,
    });
    ctx.progress(operation, input, `Checking that ${label} is a hub plugin`);
    const stagedDir = join(globalRootOf(staging), target.name);
    const checked = await checkPluginPackage(stagedDir, label);
    const { links } = checked; // read with the check: package.json is not read twice
    ctx.progress(operation, input, `Installing ${label} into ${prefix}`);
    await installGlobal(ctx, {
      prefix,
      name: target.name,
      version: target.version,
      cache,
      offline: true,
    });
    const now = await readInstalled(join(root, target.name));
    if (now?.version !== target.version) {
      throw packageError(
        "NPM_FAILED",
        `npm finished installing ${label}, but ${join(root, target.name)} holds ` +
          `${now ? `version ${now.version}` : "no package"}. Is HUB_NPM_ROOT (or "npm root -g") ` +
          `the folder npm installs into? Run "npm install --global --prefix "${prefix}" ` +
          `--ignore-scripts ${NO_LINKS} ${label}" yourself and check its output.`,
      );
    }
    const result: InstallResult = {
      name: target.name,
      plugin: checked.manifest.name,
      version: target.version,
      urlPatterns: checked.manifest.urlPatterns,
    };
    if (previous) result.previousVersion = previous.version;
    if (links.bin.length + links.man.length > 0) result.notLinked = links;
    return result;
  });
}
