/**
 * Loads one discovered plugin folder: package.json's `hub` field, `dist/tools.json` and
 * `dist/adapter.iife.js`. The hub never runs plugin code; it only reads these files. Every error
 * says what is wrong and what the plugin's author or user can do about it.
 */
import { isAbsolute, join, relative } from "node:path";
import { validate as isJsonSchema } from "./_schema_check.js";
import { clip } from "../../protocol/clip.ts";
import {
  ADAPTER_FILE,
  adapterContractProblem,
  parsePluginPackage,
  parseToolsFile,
  type PluginManifest,
  type ToolEntry,
  toolListProblem,
  TOOLS_FILE,
} from "../../protocol/plugin_manifest.ts";
import { SDK_VERSION, sdkCompatLine } from "../../protocol/version.ts";
import { readJsonFile } from "../../core/files/json_file.ts";
import {
  readBounded,
  readBoundedText,
  unusableFile,
  unusableFileMessage,
} from "../../core/files/bounded_read.ts";
import {
  MAX_ADAPTER_BYTES,
  MAX_ICON_BYTES,
  MAX_PACKAGE_JSON_BYTES,
  MAX_TOOLS_FILE_BYTES,
} from "../../protocol/plugin_limits.ts";
import type { Candidate } from "./discover.ts";
import { sourceIdentity } from "../../core/plugin_source/source_identity.ts";

export interface LoadedPlugin {
  manifest: PluginManifest;
  source: "npm" | "local";
  dir: string;
  /** What grants are bound to: `npm:<package>` or `local:<real folder>` (resolved once, here). */
  sourceId: string;
  sdkVersion: string;
  tools: ToolEntry[];
  adapter: { code: Uint8Array; hash: string };
  iconSvg?: string;
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function rebuildHint(candidate: Candidate): string {
  return candidate.source === "local"
    ? `build it again ("deno task build" or "hub-plugin build" in ${candidate.dir})`
    : `reinstall the package, or ask its author to publish a fixed build`;
}

/**
 * The icon's SVG text; undefined when it is missing, outside the folder or not SVG. An icon that is
 * not a regular file or is over MAX_ICON_BYTES fails the plugin (it is never read).
 */
async function readIcon(dir: string, icon: string | undefined): Promise<string | undefined> {
  if (!icon) return undefined;
  const path = join(dir, icon);
  const rel = relative(dir, path);
  if (isAbsolute(icon) || rel.startsWith("..")) return undefined;
  let text: string;
  try {
    text = await readBoundedText(path, { maxBytes: MAX_ICON_BYTES });
  } catch (error) {
    throwIfUnusable(dir, "the icon", error);
    return undefined;
  }
  return /<svg[\s>]/i.test(text) ? text.trim() : undefined;
}

/**
 * A plugin file that is not read (`error` an unusable file): throws what it is, and why, its path
 * shown relative to the plugin. Any other error is left to the caller.
 */
function throwIfUnusable(dir: string, what: string, error: unknown): void {
  const file = unusableFile(error);
  if (file === undefined) return;
  const fix = file.kind === "too_large"
    ? 'make it smaller (docs/plugins.md, "Size limits")'
    : "make it a regular file in the plugin's folder";
  throw new Error(
    `${what} cannot be used: ${unusableFileMessage(relative(dir, file.path), file, fix)}`,
  );
}

/**
 * Checks each tool's input schema against the JSON Schema meta-schema (draft-07) with ajv's
 * pre-generated validator (`_schema_check.js`), so loading a plugin neither imports ajv nor
 * compiles anything; tools compile their own validator on first use (validators.ts).
 */
function checkTools(manifest: PluginManifest, tools: ToolEntry[], hint: string): void {
  const problem = toolListProblem(manifest.name, tools);
  if (problem) throw new Error(`${TOOLS_FILE}: ${problem} ${hint}`);
  for (const tool of tools) {
    const dialect = (tool.inputSchema as { $schema?: unknown }).$schema;
    if (dialect !== undefined && !DRAFT_07.test(String(dialect))) {
      throw new Error(
        `${TOOLS_FILE}: tool "${tool.name}" declares "$schema": ${
          clip(JSON.stringify(dialect), 100)
        }, but hub reads JSON Schema draft-07 (what hub-plugin build writes); ${hint}`,
      );
    }
    if (!isJsonSchema(tool.inputSchema)) {
      throw new Error(
        `${TOOLS_FILE}: tool "${tool.name}" has an invalid input schema ` +
          `(${schemaProblems()}); ${hint}`,
      );
    }
  }
}

/** The one dialect ajv (as the hub uses it) knows: draft-07, with or without the empty fragment. */
const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The meta-schema check's problems, like ajv's `errorsText`, bounded. */
function schemaProblems(): string {
  const problems = (isJsonSchema.errors ?? []).slice(0, 3)
    .map((e) => `data${e.instancePath} ${e.message ?? "is invalid"}`);
  return clip(problems.join(", ") || "not a JSON Schema", 300);
}

/** Loads a plugin; throws an Error whose message is ready for `failedPlugins`. */
export async function loadPlugin(candidate: Candidate): Promise<LoadedPlugin> {
  const { dir } = candidate;
  const hint = rebuildHint(candidate);
  let manifest: PluginManifest;
  try {
    manifest = parsePluginPackage(
      await readJsonFile(join(dir, "package.json"), MAX_PACKAGE_JSON_BYTES),
    );
  } catch (error) {
    throwIfUnusable(dir, "package.json", error);
    const message = (error as Error).message;
    if (message.endsWith("does not exist")) {
      throw new Error(
        `${dir} has no package.json, so it is not a plugin folder. Fix the path in config.json, ` +
          `or create a plugin there with "hub plugin create".`,
      );
    }
    throw new Error(message.startsWith("package.json") ? message : `package.json: ${message}`);
  }
  let toolsFile;
  try {
    toolsFile = parseToolsFile(await readJsonFile(join(dir, TOOLS_FILE), MAX_TOOLS_FILE_BYTES));
  } catch (error) {
    throwIfUnusable(dir, TOOLS_FILE, error);
    const message = (error as Error).message;
    if (message.endsWith("does not exist")) {
      throw new Error(`${TOOLS_FILE} is missing: the plugin was never built; ${hint}`);
    }
    throw new Error(`${TOOLS_FILE} is broken (${message}); ${hint}`);
  }
  if (toolsFile.plugin !== manifest.name || toolsFile.version !== manifest.version) {
    throw new Error(
      `${TOOLS_FILE} was built for ${toolsFile.plugin} ${toolsFile.version}, but package.json ` +
        `says ${manifest.name} ${manifest.version}; ${hint}`,
    );
  }
  if (sdkCompatLine(toolsFile.sdkVersion) !== sdkCompatLine(SDK_VERSION)) {
    throw new Error(
      `built with plugin SDK ${toolsFile.sdkVersion}, but this hub speaks SDK ${SDK_VERSION}; ` +
        `${candidate.source === "local" ? hint : "update hub or the plugin"}`,
    );
  }
  const contract = adapterContractProblem(toolsFile);
  if (contract) {
    throw new Error(
      `${contract}; ${candidate.source === "local" ? hint : "update the plugin package"}`,
    );
  }
  checkTools(manifest, toolsFile.tools, hint);
  let code: Uint8Array;
  try {
    code = await readBounded(join(dir, ADAPTER_FILE), { maxBytes: MAX_ADAPTER_BYTES });
  } catch (error) {
    throwIfUnusable(dir, ADAPTER_FILE, error);
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`${ADAPTER_FILE} is missing; ${hint}`);
    }
    throw new Error(`${ADAPTER_FILE} cannot be read (${(error as Error).message}); ${hint}`);
  }
  return {
    manifest,
    source: candidate.source,
    dir,
    sourceId: await sourceIdentity(candidate),
    sdkVersion: toolsFile.sdkVersion,
    tools: toolsFile.tools,
    adapter: { code, hash: (await sha256Hex(code)).slice(0, 16) },
    iconSvg: await readIcon(dir, manifest.icon),
  };
}
