/**
 * The local plugin folders of a config: each `localPlugins` entry and each plugin folder inside a
 * `localPluginDirs` entry, with what its package.json says (package name, plugin name, version) when
 * it can be read. For `hub plugin list` offline and for removing the entries that point at a plugin.
 */
import { join } from "node:path";
import { resolvePluginPath } from "../config/paths.ts";
import type { HubConfig } from "../config/schema.ts";
import { readInstalled } from "./installed_packages.ts";
import { readBoundedText } from "../files/bounded_read.ts";
import { MAX_PACKAGE_JSON_BYTES } from "../../protocol/plugin_limits.ts";

export interface LocalPlugin {
  /** The config entry: a `localPlugins` entry, or the `localPluginDirs` entry it was found in. */
  entry: string;
  /** True when found inside a `localPluginDirs` entry (removing it means editing that folder). */
  inPluginDirs: boolean;
  dir: string;
  packageName?: string;
  plugin?: string;
  version?: string;
}

async function describe(entry: string, dir: string, inPluginDirs: boolean): Promise<LocalPlugin> {
  const pkg = await readInstalled(dir);
  return pkg
    ? { entry, inPluginDirs, dir, packageName: pkg.name, plugin: pkg.plugin, version: pkg.version }
    : { entry, inPluginDirs, dir };
}

async function hasHubField(dir: string): Promise<boolean> {
  try {
    const path = join(dir, "package.json");
    return /"hub"\s*:/.test(await readBoundedText(path, { maxBytes: MAX_PACKAGE_JSON_BYTES }));
  } catch {
    return false;
  }
}

/** Every local plugin folder the config names; folders that cannot be read are left out. */
export async function listLocalPlugins(
  config: Pick<HubConfig, "localPlugins" | "localPluginDirs">,
  configDir: string,
): Promise<LocalPlugin[]> {
  const found: LocalPlugin[] = [];
  for (const entry of config.localPlugins) {
    found.push(await describe(entry, resolvePluginPath(entry, configDir), false));
  }
  for (const entry of config.localPluginDirs) {
    const parent = resolvePluginPath(entry, configDir);
    let names: string[] = [];
    try {
      for await (const child of Deno.readDir(parent)) names.push(child.name);
    } catch {
      continue;
    }
    names = names.sort();
    for (const name of names) {
      const dir = join(parent, name);
      if (await hasHubField(dir)) found.push(await describe(entry, dir, true));
    }
  }
  return found;
}

/** Whether a local plugin is one of these packages, or this plugin. */
export function localMatches(
  local: LocalPlugin,
  target: { packageNames: string[]; plugin?: string },
): boolean {
  if (local.packageName !== undefined && target.packageNames.includes(local.packageName)) {
    return true;
  }
  return target.plugin !== undefined && local.plugin === target.plugin;
}
