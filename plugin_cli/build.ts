/**
 * `hub-plugin build`: checks a plugin project and writes `dist/tools.json` and
 * `dist/adapter.iife.js`. Nothing in `dist/` changes unless the whole build succeeds.
 */
import { dirname } from "node:path";
import {
  ADAPTER_CONTRACT,
  type ToolEntry,
  toolListProblem,
  type ToolsFile,
} from "../protocol/plugin_manifest.ts";
import { SDK_VERSION } from "../protocol/version.ts";
import { writeFileAtomic } from "../core/files/atomic_write.ts";
import { UserError } from "../core/cli/user_error.ts";
import type { PluginDescription } from "../sdk/describe.ts";
import { bundle, SDK_ADAPTER_RUNTIME, SDK_ZOD } from "./bundle.ts";
import { describeProject } from "./describe.ts";
import { loadProject, type PluginProject } from "./project.ts";
import { checkSdkDeclarations, readSdkDeclarations } from "./sdk_range.ts";

export interface BuildResult {
  project: PluginProject;
  tools: ToolEntry[];
  adapterBytes: number;
  durationMs: number;
  /** Things the author should fix that did not stop the build (an SDK range, an old name). */
  warnings: string[];
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the source declares about the plugin must agree with package.json's `hub` field. */
function checkDeclared(project: PluginProject, declared: PluginDescription["declared"]) {
  const manifest = project.manifest as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(declared)) {
    if (!sameValue(value, manifest[key])) {
      throw new UserError(
        `${project.entry} declares ${key} ${JSON.stringify(value)}, but package.json's hub field ` +
          `says ${JSON.stringify(manifest[key] ?? null)}. package.json is what the hub reads: ` +
          `make them equal, or remove ${key} from definePlugin().`,
      );
    }
  }
}

/** The tool list must be non-empty and follow the shared rules (protocol/plugin_manifest.ts). */
export function checkTools(plugin: string, tools: ToolEntry[]): void {
  if (tools.length === 0) throw new UserError("The plugin defines no tools: add one to `tools`.");
  const problem = toolListProblem(plugin, tools);
  if (problem) throw new UserError(problem);
}

async function writeDist(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text, { mode: 0o644 });
}

/** Builds the plugin in `dir`. Throws a UserError that says what to fix. */
export async function buildPlugin(dir: string): Promise<BuildResult> {
  const started = performance.now();
  const project = await loadProject(dir);
  const { manifest } = project;
  const warnings = checkSdkDeclarations(await readSdkDeclarations(project.dir));
  const description = await describeProject(project);
  checkDeclared(project, description.declared);
  checkTools(manifest.name, description.tools);
  const meta = { name: manifest.name, version: manifest.version, sdkVersion: SDK_VERSION };
  const adapter = await bundle(
    project.dir,
    [
      // zod's jitless switch comes first: it must be set before the plugin makes any schema.
      `import ${JSON.stringify(SDK_ZOD)};`,
      `import * as entry from ${JSON.stringify(project.entry)};`,
      `import { registerAdapter } from ${JSON.stringify(SDK_ADAPTER_RUNTIME)};`,
      // The bundle's completion value: the door's key and secret, for the extension alone.
      `export default registerAdapter(entry.default, ${JSON.stringify(meta)});`,
    ].join("\n"),
    "iife",
    `/* hub adapter: ${manifest.name} ${manifest.version}, SDK ${SDK_VERSION} */`,
  );
  const toolsFile: ToolsFile = {
    sdkVersion: SDK_VERSION,
    adapterContract: ADAPTER_CONTRACT,
    plugin: manifest.name,
    version: manifest.version,
    tools: description.tools,
  };
  await writeDist(project.adapterFile, adapter);
  await writeDist(project.toolsFile, JSON.stringify(toolsFile, null, 2) + "\n");
  return {
    project,
    tools: description.tools,
    adapterBytes: new TextEncoder().encode(adapter).length,
    durationMs: Math.round(performance.now() - started),
    warnings,
  };
}
