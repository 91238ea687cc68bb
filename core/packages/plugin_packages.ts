/**
 * Plugin packages on the npm registry, for the `hub plugin` commands and the hub's `/ws` methods
 * alike: search, install, update, remove, check for updates, list what is installed. It drives the
 * `npm` command, so the user's npm config (registry, proxy, CA, auth) applies and the hub keeps its
 * loopback-only network permission. Packages are installed globally, beside hub, with install
 * scripts disabled (a plugin needs only its built files); a package is staged and checked before it
 * replaces an installed version; operations on one package run one at a time; every npm call has a
 * time limit; every failure is a `packageError` whose code says what went wrong.
 */
import { join } from "node:path";
import type {
  InstallResult,
  PackageOperation,
  PackageProgress,
  RemoveResult,
  SearchResult,
  UpdateCheck,
} from "../../protocol/packages.ts";
// @ts-types="@types/semver"
import semver from "semver";
import type { ConfigStore } from "../config/config_store.ts";
import { type NpmRunner, runNpm } from "../process/npm_runner.ts";
import { searchRegistry, viewVersion } from "./npm_commands.ts";
import { createPackageContext, type PackageContext, withWorkDir } from "./package_context.ts";
import { packageError } from "./package_error.ts";
import { parseName, parseSpec } from "./package_names.ts";
import { installResolved, resolveSpec } from "./package_install.ts";
import { findInstalled, removePackage } from "./package_remove.ts";
import { checkForUpdates } from "./update_check.ts";
import { type InstalledPackage, listInstalled } from "./installed_packages.ts";
import { searchTerms, toSearchResult } from "./registry_search.ts";

export {
  isPackageError,
  type PackageError,
  packageError,
  type PackageErrorCode,
} from "./package_error.ts";
export type { InstalledPackage } from "./installed_packages.ts";

export interface PluginPackagesOptions {
  /** The global node_modules folder plugin packages live in (HUB_NPM_ROOT, else `npm root -g`). */
  globalRoot: () => Promise<string>;
  /** For removing localPlugins entries that point at a removed plugin. */
  store: ConfigStore;
  /** Default: the real npm with time limits. */
  npm?: NpmRunner;
  /** Per npm call; default 120 s for install/update/remove, 30 s for search and checks. */
  timeoutMs?: number;
  onProgress?: (progress: PackageProgress) => void;
}

export interface PluginPackages {
  search(query?: string): Promise<SearchResult>;
  install(spec: string): Promise<InstallResult>;
  /** Installs the latest version of an installed plugin package. */
  update(spec: string): Promise<InstallResult>;
  /** A shorthand, package name or plugin name. */
  remove(spec: string): Promise<RemoveResult>;
  checkUpdates(): Promise<UpdateCheck>;
  /** The plugin packages installed in the global root: name, version, plugin, dir. */
  installed(): Promise<InstalledPackage[]>;
}

export function createPluginPackages(options: PluginPackagesOptions): PluginPackages {
  const ctx = createPackageContext({ ...options, npm: options.npm ?? runNpm });
  const installed = async () => listInstalled(await ctx.globalRoot());
  return {
    search: (query) => reported(ctx, "search", undefined, () => search(ctx, query, installed)),
    install: (spec) => reported(ctx, "install", spec, () => install(ctx, spec)),
    update: (spec) => reported(ctx, "update", spec, () => update(ctx, spec, installed)),
    remove: (spec) => reported(ctx, "remove", spec, () => removePackage(ctx, spec)),
    checkUpdates: () =>
      reported(ctx, "checkUpdates", undefined, async () => {
        const list = await installed();
        return withWorkDir((work) => checkForUpdates(ctx, list, join(work, "cache")));
      }),
    installed,
  };
}

/** Runs an operation and reports its end (success or failure) as the last progress message. */
async function reported<T>(
  ctx: PackageContext,
  operation: PackageOperation,
  name: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    const result = await run();
    ctx.done(operation, name, doneMessage(operation, result));
    return result;
  } catch (error) {
    ctx.done(operation, name, `Failed: ${(error as Error).message}`);
    throw error;
  }
}

function doneMessage(operation: PackageOperation, result: unknown): string {
  const r = result as Record<string, unknown>;
  switch (operation) {
    case "search":
      return `Found ${count((r.packages as unknown[]).length, "plugin package")}`;
    case "install":
    case "update":
      return r.previousVersion === r.version
        ? `${r.name} ${r.version} is installed (no change)`
        : `Installed ${r.name} ${r.version}` +
          (r.previousVersion ? ` (was ${r.previousVersion})` : "");
    case "remove":
      return `Removed ${r.name}`;
    case "checkUpdates":
      return `${count((r.updates as unknown[]).length, "update")} available`;
  }
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

async function search(
  ctx: PackageContext,
  query: string | undefined,
  installed: () => Promise<InstalledPackage[]>,
): Promise<SearchResult> {
  const terms = searchTerms(query);
  ctx.progress("search", undefined, `Searching the npm registry for ${terms.join(" ")}`);
  const [entries, here] = await Promise.all([
    withWorkDir((work) => searchRegistry(ctx, terms, join(work, "cache"))),
    installed().catch(() => []), // no global root (npm broken): results without installed marks
  ]);
  return toSearchResult(query, entries, new Map(here.map((p) => [p.name, p.version])));
}

function install(ctx: PackageContext, input: string): Promise<InstallResult> {
  const spec = parseSpec(input);
  return withWorkDir(async (work) => {
    const target = await resolveSpec(ctx, "install", input, spec, join(work, "cache"));
    return installResolved(ctx, "install", input, target, work);
  });
}

async function update(
  ctx: PackageContext,
  input: string,
  installed: () => Promise<InstalledPackage[]>,
): Promise<InstallResult> {
  const spec = parseName(input, "update");
  const current = findInstalled(
    await installed(),
    spec.candidates,
    spec.shorthand ? input.trim() : undefined,
  );
  if (!current) {
    throw packageError(
      "NOT_INSTALLED",
      `"${input.trim()}" is not an installed plugin package, so there is nothing to update. ` +
        `Install it with "hub plugin install ${input.trim()}"; a local plugin folder is updated ` +
        `by building it again.`,
    );
  }
  return withWorkDir(async (work) => {
    ctx.progress("update", input, `Looking up the latest ${current.name}`);
    const latest = await viewVersion(ctx, current.name, undefined, join(work, "cache"));
    if (latest === undefined) {
      throw packageError(
        "PACKAGE_NOT_FOUND",
        `${current.name} (installed: ${current.version}) is no longer published on the npm ` +
          `registry npm uses, so it cannot be updated. "npm config get registry" shows it.`,
      );
    }
    if (semver.valid(current.version) && !semver.gt(latest, current.version)) {
      return {
        name: current.name,
        plugin: current.plugin,
        version: current.version,
        previousVersion: current.version,
      };
    }
    return installResolved(ctx, "update", input, { name: current.name, version: latest }, work);
  });
}
