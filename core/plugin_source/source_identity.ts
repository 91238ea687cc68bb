/**
 * The source a plugin is served from, as grants are bound to it (docs/security.md, "Grants belong
 * to a plugin's source"): `npm:<package>` for a global package (the package folder's name, which is
 * what npm installed and what `hub plugin remove` uninstalls, never what its package.json claims),
 * `local:<folder>` for a local plugin (its real path, so a link that is pointed elsewhere is another
 * source). The hub, `hub plugin list` and `hub plugin install` all read sources through this file.
 */
import { basename, dirname } from "node:path";

export interface PluginSource {
  source: "npm" | "local";
  dir: string;
}

/** The package name a global package folder holds: `<root>/@scope/name` or `<root>/name`. */
export function packageOfFolder(dir: string): string {
  const parent = basename(dirname(dir));
  return parent.startsWith("@") ? `${parent}/${basename(dir)}` : basename(dir);
}

/** The identity of a package by its name: `npm:<package>`. */
export function packageIdentity(packageName: string): string {
  return `npm:${packageName}`;
}

/**
 * The identity grants and reviews are bound to. Resolves a local folder's real path (off the
 * caller's thread); a folder gone meanwhile keeps the path as discovered.
 */
export async function sourceIdentity(plugin: PluginSource): Promise<string> {
  if (plugin.source === "npm") return packageIdentity(packageOfFolder(plugin.dir));
  return `local:${await Deno.realPath(plugin.dir).catch(() => plugin.dir)}`;
}

/** How a person reads a source identity: "package x" or "folder /y" (anything else as it is). */
export function describeSource(identity: string): string {
  if (identity.startsWith("npm:")) return `package ${identity.slice(4)}`;
  if (identity.startsWith("local:")) return `folder ${identity.slice(6)}`;
  return identity;
}
