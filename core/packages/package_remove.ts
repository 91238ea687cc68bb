/**
 * Removing a plugin: the global package (`npm uninstall --global`), and the `localPlugins` entries
 * of config.json whose folder holds the same package or plugin. The name may be a shorthand, a
 * package name or a plugin name; NOT_INSTALLED when neither a package nor an entry matches.
 */
import { dirname, join } from "node:path";
import type { RemoveResult } from "../../protocol/packages.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { uninstallGlobal } from "./npm_commands.ts";
import type { PackageContext } from "./package_context.ts";
import { PackageError } from "./package_error.ts";
import { parseName } from "./package_names.ts";
import { prefixOfGlobalRoot } from "./global_root.ts";
import { type InstalledPackage, listInstalled, readInstalled } from "./installed_packages.ts";
import { listLocalPlugins, localMatches, type LocalPlugin } from "./local_plugins.ts";

/** The installed package a name stands for: a candidate package name first, then a plugin name. */
export function findInstalled(
  installed: InstalledPackage[],
  candidates: string[],
  plugin: string | undefined,
): InstalledPackage | undefined {
  for (const name of candidates) {
    const found = installed.find((p) => p.name === name);
    if (found) return found;
  }
  return plugin === undefined ? undefined : installed.find((p) => p.plugin === plugin);
}

export interface RemovalPlan {
  /** The global package to uninstall, if one matches. */
  target?: InstalledPackage;
  /** The localPlugins entries to remove. */
  entries: string[];
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
  return { target, entries };
}

export async function removePackage(ctx: PackageContext, input: string): Promise<RemoveResult> {
  parseName(input, "remove");
  const root = await ctx.globalRoot();
  const locals = await listLocalPlugins(await ctx.store.load(), dirname(ctx.store.path));
  const { target, entries } = planRemoval(input, root, await listInstalled(root), locals);
  const name = target?.name ?? input.trim();
  return ctx.serialize(target?.name ?? `local+${name}`, async () => {
    let uninstalled = false;
    if (target) {
      ctx.progress("remove", input, `Removing ${target.name} ${target.version}`);
      await uninstallGlobal(ctx, prefixOfGlobalRoot(root), target.name);
      if (await readInstalled(join(root, target.name))) {
        throw new PackageError(
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
    return { name, uninstalled, localPluginsRemoved: entries };
  });
}

function notInstalled(input: string, root: string, inPluginDirs: string | undefined) {
  const name = clipForMessage(input.trim());
  if (inPluginDirs) {
    return new PackageError(
      "NOT_INSTALLED",
      `"${name}" is the plugin folder ${inPluginDirs} inside a localPluginDirs folder, not an ` +
        `installed package, and hub does not delete folders: move or delete it yourself (the ` +
        `hub stops loading it on its next reload).`,
    );
  }
  return new PackageError(
    "NOT_INSTALLED",
    `"${name}" is neither a plugin package installed in ${root} nor a localPlugins entry of ` +
      `config.json, so there is nothing to remove. "hub plugin list" shows the plugins.`,
  );
}
