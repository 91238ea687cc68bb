/**
 * Removing a plugin: the global package (`npm uninstall --global`), and the `localPlugins` entries
 * of config.json whose folder holds the same package or plugin. The name may be a shorthand, a
 * package name, a plugin name, or a `localPlugins` entry as written (then only that entry goes;
 * the folder stays); NOT_INSTALLED when neither a package nor an entry matches.
 */
import { dirname, join } from "node:path";
import type { RemoveResult } from "../../protocol/packages.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { uninstallGlobal } from "./npm_commands.ts";
import type { PackageContext } from "./package_context.ts";
import { type PackageError, packageError } from "./package_error.ts";
import { parseName } from "./package_names.ts";
import { prefixOfGlobalRoot } from "./global_root.ts";
import { type InstalledPackage, listInstalled, readInstalled } from "./installed_packages.ts";
import { listLocalPlugins, localMatches, type LocalPlugin } from "./local_plugins.ts";

/**
 * The installed package a name stands for. A plugin name (a shorthand) stands for the one package
 * that serves that plugin, whatever the package is called: removing "jira" never uninstalls the
 * official package while another package named its plugin "jira" too. When several packages claim
 * the plugin name (the hub refuses them all), the person must name the package. A shorthand no
 * package claims as a plugin name stands for its official, then community package name.
 */
export function findInstalled(
  installed: InstalledPackage[],
  candidates: string[],
  plugin: string | undefined,
): InstalledPackage | undefined {
  if (plugin !== undefined) {
    const claimants = installed.filter((p) => p.plugin === plugin);
    if (claimants.length > 1) throw contested(plugin, claimants);
    if (claimants.length === 1) return claimants[0];
  }
  for (const name of candidates) {
    const found = installed.find((p) => p.name === name);
    if (found) return found;
  }
  return undefined;
}

function contested(plugin: string, claimants: InstalledPackage[]): PackageError {
  const names = claimants.map((p) => `${p.name} ${p.version}`).join(" and ");
  return packageError(
    "INVALID_NAME",
    `Plugin name "${clipForMessage(plugin)}" is claimed by ${claimants.length} packages: ` +
      `${names}. The hub loads neither. Name the package to remove, for example "hub plugin ` +
      `remove ${claimants[claimants.length - 1].name}".`,
  );
}

/** A `localPlugins` entry as written in config.json (or its resolved folder). */
function localEntry(input: string, locals: LocalPlugin[]): LocalPlugin | undefined {
  const text = input.trim();
  return locals.find((l) => !l.inPluginDirs && (l.entry === text || l.dir === text));
}

export interface RemovalPlan {
  /** The global package to uninstall, if one matches. */
  target?: InstalledPackage;
  /** The localPlugins entries to remove. */
  entries: string[];
  /** Plugin folders inside localPluginDirs that claim the plugin: they stay (hub deletes no folder). */
  foldersKept?: string[];
}

/**
 * What removing `input` would remove: the installed package it names and the localPlugins entries
 * whose folder holds that package or plugin. Throws NOT_INSTALLED when nothing matches.
 */
export function planRemoval(
  input: string,
  root: string,
  installed: InstalledPackage[],
  locals: LocalPlugin[],
): RemovalPlan {
  const entry = localEntry(input, locals);
  if (entry) return { entries: [entry.entry] }; // a folder path: only its entry goes
  const spec = parseName(input, "remove");
  const plugin = spec.shorthand ? input.trim() : undefined;
  const target = findInstalled(installed, spec.candidates, plugin);
  const match = {
    packageNames: target ? [target.name] : spec.candidates,
    plugin: target?.plugin ?? plugin,
  };
  const matching = locals.filter((local) => localMatches(local, match));
  const entries = matching.filter((l) => !l.inPluginDirs).map((l) => l.entry);
  if (!target && entries.length === 0) throw notInstalled(input, root, matching[0]?.dir);
  const kept = matching.filter((l) => l.inPluginDirs).map((l) => l.dir);
  return { target, entries, ...(kept.length > 0 ? { foldersKept: kept } : {}) };
}

export async function removePackage(ctx: PackageContext, input: string): Promise<RemoveResult> {
  const root = await ctx.globalRoot();
  const locals = await listLocalPlugins(await ctx.store.load(), dirname(ctx.store.path));
  const { target, entries, foldersKept } = planRemoval(
    input,
    root,
    await listInstalled(root),
    locals,
  );
  const name = target?.name ?? input.trim();
  // A lock per package; config.json edits alone share one (a path makes no lock file name).
  return ctx.serialize(target?.name ?? "local+localPlugins", async () => {
    let uninstalled = false;
    if (target) {
      ctx.progress("remove", input, `Removing ${target.name} ${target.version}`);
      await uninstallGlobal(ctx, prefixOfGlobalRoot(root), target.name);
      if (await readInstalled(join(root, target.name))) {
        throw packageError(
          "NPM_FAILED",
          `npm finished removing ${target.name}, but it is still in ${root}. Run "npm ` +
            `uninstall --global ${target.name}" yourself and check its output.`,
        );
      }
      uninstalled = true;
    }
    if (entries.length > 0) {
      ctx.progress("remove", input, `Removing ${entries.join(", ")} from localPlugins`);
      await ctx.store.update((config) => {
        config.localPlugins = config.localPlugins.filter((entry) => !entries.includes(entry));
      });
    }
    return {
      name,
      uninstalled,
      localPluginsRemoved: entries,
      ...(foldersKept ? { foldersKept } : {}),
    };
  });
}

function notInstalled(input: string, root: string, inPluginDirs: string | undefined) {
  const name = clipForMessage(input.trim());
  if (inPluginDirs) {
    return packageError(
      "NOT_INSTALLED",
      `"${name}" is the plugin folder ${inPluginDirs} inside a localPluginDirs folder, not an ` +
        `installed package, and hub does not delete folders: move or delete it yourself (the ` +
        `hub stops loading it on its next reload).`,
    );
  }
  return packageError(
    "NOT_INSTALLED",
    `"${name}" is neither a plugin package installed in ${root} nor a localPlugins entry of ` +
      `config.json, so there is nothing to remove. "hub plugin list" shows the plugins.`,
  );
}
