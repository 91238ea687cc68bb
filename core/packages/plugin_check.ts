/**
 * Checks that a downloaded package is a hub plugin this hub can load, before it is installed where
 * the hub finds it: package.json has a valid `hub` field, `dist/tools.json` was built for this
 * package and version with an SDK of this hub's compatibility line, and `dist/adapter.iife.js`
 * exists. The same rules the hub applies when it loads a plugin, minus the tool schemas; and the
 * package, unpacked, within the size limits (package_size.ts), checked before any file is read.
 */
import { join, relative } from "node:path";
import {
  ADAPTER_FILE,
  adapterContractProblem,
  parsePluginPackage,
  parseToolsFile,
  type PluginManifest,
  TOOLS_FILE,
} from "../../protocol/plugin_manifest.ts";
import { SDK_VERSION, sdkCompatLine } from "../../protocol/version.ts";
import { clip } from "../../protocol/clip.ts";
import { readJsonFile } from "../files/json_file.ts";
import { type PackageError, packageError } from "./package_error.ts";
import { checkPackageSize } from "./package_size.ts";
import { checkRegularFile, unusableFile, unusableFileMessage } from "../files/bounded_read.ts";
import { type DeclaredLinks, declaredLinks } from "./declared_links.ts";
import {
  MAX_ADAPTER_BYTES,
  MAX_PACKAGE_JSON_BYTES,
  MAX_TOOLS_FILE_BYTES,
} from "../../protocol/plugin_limits.ts";

export interface CheckedPlugin {
  manifest: PluginManifest;
  sdkVersion: string;
  toolCount: number;
  /** The `bin` and `man` entries package.json declares (never linked), from the same read. */
  links: DeclaredLinks;
}

function notAPlugin(label: string, why: string): PackageError {
  return packageError(
    "NOT_A_HUB_PLUGIN",
    `${label} is not a hub plugin: ${clip(why, 300)}. Nothing was installed; ask its author ` +
      `for a build made with "hub-plugin build", or check the name.`,
  );
}

/**
 * What is wrong with one of the package's files: an unusable file (`unusableFile`) named inside
 * the package; other errors with the package's folder shown as `<package>`.
 */
function fileProblem(dir: string, error: unknown): string {
  const unusable = unusableFile(error);
  if (unusable) {
    return unusableFileMessage(`<package>/${relative(dir, unusable.path)}`, unusable);
  }
  return (error as Error).message.replace(dir, "<package>");
}

/** Checks the package in `dir`; `label` names it in messages (`hub-plugin-x@1.0.0`). */
export async function checkPluginPackage(dir: string, label: string): Promise<CheckedPlugin> {
  await checkPackageSize(dir, label); // before any of its files is read
  let manifest: PluginManifest;
  let links: DeclaredLinks;
  try {
    const pkg = await readJsonFile(join(dir, "package.json"), MAX_PACKAGE_JSON_BYTES);
    manifest = parsePluginPackage(pkg);
    links = declaredLinks(pkg);
  } catch (error) {
    throw notAPlugin(label, fileProblem(dir, error));
  }
  let tools;
  try {
    tools = parseToolsFile(await readJsonFile(join(dir, TOOLS_FILE), MAX_TOOLS_FILE_BYTES));
  } catch (error) {
    const message = (error as Error).message;
    throw notAPlugin(
      label,
      message.endsWith("does not exist")
        ? `it has no ${TOOLS_FILE} (the package holds no built plugin)`
        : `${TOOLS_FILE} is broken (${fileProblem(dir, error)})`,
    );
  }
  if (tools.plugin !== manifest.name || tools.version !== manifest.version) {
    throw notAPlugin(
      label,
      `${TOOLS_FILE} was built for ${tools.plugin} ${tools.version}, but package.json says ` +
        `${manifest.name} ${manifest.version}`,
    );
  }
  const adapter = join(dir, ADAPTER_FILE);
  const info = await Deno.stat(adapter).catch(() => undefined);
  if (!info) throw notAPlugin(label, `it has no ${ADAPTER_FILE}`);
  try {
    checkRegularFile(adapter, info, MAX_ADAPTER_BYTES);
  } catch (error) {
    throw notAPlugin(label, fileProblem(dir, error));
  }
  if (sdkCompatLine(tools.sdkVersion) !== sdkCompatLine(SDK_VERSION)) {
    throw packageError(
      "INCOMPATIBLE_SDK",
      `${label} was built with plugin SDK ${clip(tools.sdkVersion, 40)}, but this hub speaks ` +
        `SDK ${SDK_VERSION}; nothing was installed. Update hub ("hub update"), or install a ` +
        `version of the plugin built for SDK ${sdkCompatLine(SDK_VERSION)}.x.`,
    );
  }
  const contract = adapterContractProblem(tools);
  if (contract) {
    throw packageError(
      "INCOMPATIBLE_SDK",
      `${label}: ${contract}; nothing was installed. Install a version of the plugin built by ` +
        `this hub's hub-plugin, or ask its author to rebuild it.`,
    );
  }
  return { manifest, sdkVersion: tools.sdkVersion, toolCount: tools.tools.length, links };
}
