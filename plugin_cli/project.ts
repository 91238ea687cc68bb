/** A plugin project on disk, as `hub-plugin` sees it: its folder, package.json and entry file. */
import { isAbsolute, join, relative, resolve } from "node:path";
import {
  ADAPTER_FILE,
  DEFAULT_ENTRY,
  HUB_FIELD_KEYS,
  parsePluginPackage,
  type PluginManifest,
  TOOLS_FILE,
  unknownHubKeys,
} from "../protocol/plugin_manifest.ts";
import { readJsonFile } from "../core/files/json_file.ts";
import { MAX_PACKAGE_JSON_BYTES } from "../protocol/plugin_limits.ts";
import { UserError } from "../core/cli/user_error.ts";

export interface PluginProject {
  dir: string;
  manifest: PluginManifest;
  /** Absolute path of the source entry file. */
  entry: string;
  toolsFile: string;
  adapterFile: string;
}

/** Loads and validates the project in `dir`; a UserError says what is wrong and how to fix it. */
export async function loadProject(dir: string): Promise<PluginProject> {
  const pkgPath = join(dir, "package.json");
  let pkg: unknown;
  try {
    pkg = await readJsonFile(pkgPath, MAX_PACKAGE_JSON_BYTES);
  } catch (error) {
    const hint = (error as Error).message.endsWith("does not exist")
      ? ' Run hub-plugin in a plugin folder, or create one with "hub plugin create".'
      : "";
    throw new UserError(`${(error as Error).message}.${hint}`);
  }
  const unknown = unknownHubKeys((pkg ?? {}) as Record<string, unknown>);
  if (unknown.length > 0) {
    throw new UserError(
      `${pkgPath}: unknown key${unknown.length > 1 ? "s" : ""} ${
        unknown.map((k) => `"hub.${k}"`).join(", ")
      } (the hub field knows: ${HUB_FIELD_KEYS.join(", ")})`,
    );
  }
  let manifest: PluginManifest;
  try {
    manifest = parsePluginPackage(pkg);
  } catch (error) {
    throw new UserError(`${pkgPath}: ${(error as Error).message}`);
  }
  const entryPath = manifest.entry ?? DEFAULT_ENTRY;
  const entry = resolve(dir, entryPath);
  const rel = relative(dir, entry);
  if (isAbsolute(entryPath) || rel.startsWith("..")) {
    throw new UserError(
      `${pkgPath}: hub.entry "${entryPath}" must be a path inside the plugin folder`,
    );
  }
  try {
    await Deno.stat(entry);
  } catch {
    throw new UserError(
      `The entry file ${entry} does not exist. Create it, or point "hub.entry" in package.json ` +
        `at your plugin's source file.`,
    );
  }
  return {
    dir,
    manifest,
    entry,
    toolsFile: join(dir, TOOLS_FILE),
    adapterFile: join(dir, ADAPTER_FILE),
  };
}
