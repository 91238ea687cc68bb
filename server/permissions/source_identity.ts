/**
 * The source a plugin is served from, as grants are bound to it (docs/security.md, "Grants belong
 * to a plugin's source"): `npm:<package>` for a global package (the package folder's name, which is
 * what npm installed and what `hub plugin remove` uninstalls), `local:<folder>` for a local plugin
 * (its real path, so a link that is pointed elsewhere is another source).
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

function realFolder(dir: string): string {
  try {
    return Deno.realPathSync(dir);
  } catch {
    return dir; // gone meanwhile: the path as discovered still names it
  }
}

/** The identity grants and reviews are bound to. */
export function sourceIdentity(plugin: PluginSource): string {
  return plugin.source === "npm"
    ? `npm:${packageOfFolder(plugin.dir)}`
    : `local:${realFolder(plugin.dir)}`;
}

/** How a person reads a source identity: "package x" or "folder /y". */
export function describeSource(identity: string): string {
  if (identity.startsWith("npm:")) return `package ${identity.slice(4)}`;
  if (identity.startsWith("local:")) return `folder ${identity.slice(6)}`;
  return identity;
}
