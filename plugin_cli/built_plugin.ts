/** A plugin as its last build left it: package.json plus `dist/tools.json`. */
import { join } from "node:path";
import {
  parsePluginPackage,
  parseToolsFile,
  type PluginManifest,
  TOOLS_FILE,
  type ToolsFile,
} from "../protocol/plugin_manifest.ts";
import { readJsonFile } from "../core/files/json_file.ts";
import { MAX_PACKAGE_JSON_BYTES, MAX_TOOLS_FILE_BYTES } from "../protocol/plugin_limits.ts";
import { UserError } from "../core/cli/user_error.ts";

export interface BuiltPlugin {
  manifest: PluginManifest;
  tools: ToolsFile;
}

/** Reads a built plugin; a UserError says to build first when `dist/tools.json` is missing. */
export async function readBuiltPlugin(dir: string): Promise<BuiltPlugin> {
  let manifest: PluginManifest;
  try {
    manifest = parsePluginPackage(
      await readJsonFile(join(dir, "package.json"), MAX_PACKAGE_JSON_BYTES),
    );
  } catch (error) {
    throw new UserError(`${join(dir, "package.json")}: ${(error as Error).message}`);
  }
  const path = join(dir, TOOLS_FILE);
  try {
    await Deno.stat(path);
  } catch {
    throw new UserError(
      `${path} does not exist: build the plugin first ("deno task build" or "hub-plugin build").`,
    );
  }
  try {
    return { manifest, tools: parseToolsFile(await readJsonFile(path, MAX_TOOLS_FILE_BYTES)) };
  } catch (error) {
    throw new UserError(
      `${path}: ${
        (error as Error).message
      }. Build the plugin again ("deno task build" or "hub-plugin build").`,
    );
  }
}
