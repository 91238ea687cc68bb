/**
 * The plugin packages installed in a global node_modules folder: every `hub-plugin-*` and
 * `@<scope>/hub-plugin-*` folder with a readable package.json, with its version and plugin name
 * (`hub.name`, else the package name without scope and `hub-plugin-`). A folder whose package is
 * broken is still listed, so that it can be updated or removed.
 */
import { join } from "node:path";
import { pluginNameFromPackage } from "../../protocol/plugin_manifest.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { isPluginPackageName, PLUGIN_PREFIX } from "./package_names.ts";
import { readBoundedText } from "../files/bounded_read.ts";
import { parseBoundedJson } from "../files/json_depth.ts";
import { MAX_PACKAGE_JSON_BYTES } from "../../protocol/plugin_limits.ts";

export interface InstalledPackage {
  name: string;
  version: string;
  /** The plugin's name (its tool prefix). */
  plugin: string;
  dir: string;
}

async function listDir(path: string): Promise<Deno.DirEntry[]> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(path)) entries.push(entry);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return [];
    }
    throw error;
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** A folder, or a link that may point at one (`npm link`). */
const isFolder = (entry: Deno.DirEntry) => entry.isDirectory || entry.isSymlink;

/** A folder's package as an installed plugin package; undefined when it has no usable package.json. */
export async function readInstalled(dir: string): Promise<InstalledPackage | undefined> {
  let pkg: unknown;
  try {
    const path = join(dir, "package.json");
    pkg = parseBoundedJson(await readBoundedText(path, { maxBytes: MAX_PACKAGE_JSON_BYTES }));
  } catch {
    return undefined;
  }
  if (!isPlainObject(pkg) || typeof pkg.name !== "string" || typeof pkg.version !== "string") {
    return undefined;
  }
  const hubName = isPlainObject(pkg.hub) && typeof pkg.hub.name === "string"
    ? pkg.hub.name
    : undefined;
  return {
    name: pkg.name,
    version: pkg.version,
    plugin: hubName ?? pluginNameFromPackage(pkg.name),
    dir,
  };
}

/** Every plugin package installed in `root`, sorted by name. */
export async function listInstalled(root: string): Promise<InstalledPackage[]> {
  const found: InstalledPackage[] = [];
  const add = async (name: string, dir: string) => {
    if (!isPluginPackageName(name)) return;
    const pkg = await readInstalled(dir);
    if (pkg && pkg.name === name) found.push(pkg);
  };
  for (const entry of await listDir(root)) {
    if (entry.name.startsWith(PLUGIN_PREFIX) && isFolder(entry)) {
      await add(entry.name, join(root, entry.name));
    } else if (entry.name.startsWith("@") && isFolder(entry)) {
      for (const inner of await listDir(join(root, entry.name))) {
        if (inner.name.startsWith(PLUGIN_PREFIX) && isFolder(inner)) {
          await add(`${entry.name}/${inner.name}`, join(root, entry.name, inner.name));
        }
      }
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
