/**
 * Runs the real `hub-plugin` (plugin_cli/main.ts) as a subprocess under its permission flags with a
 * temp HUB_CONFIG_DIR, and writes plugin folders by hand: a source project for `hub-plugin build`,
 * or a ready-built folder (package.json + dist/) for discovery tests that need no build.
 */
import { join } from "node:path";
import { PLUGIN_CLI_PERMISSION_FLAGS } from "../../cli/server/deno_permissions.ts";
import { SDK_VERSION } from "../../protocol/version.ts";
import { ADAPTER_CONTRACT } from "../../protocol/plugin_manifest.ts";
import {
  freePort,
  ROOT,
  runCommand,
  type RunResult,
  spawnCommand,
  type SpawnedProcess,
} from "./hub_process.ts";

export const PLUGIN_CLI = join(ROOT, "plugin_cli", "main.ts");

export interface PluginCliEnv {
  configDir: string;
  /** Working directory of the process (default: the repository root). */
  cwd?: string;
  /** Extra variables; `HUB_PORT` defaults to a port where no hub listens. */
  env?: Record<string, string>;
}

function pluginCliCommand(args: string[], opts: PluginCliEnv): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...PLUGIN_CLI_PERMISSION_FLAGS, PLUGIN_CLI, ...args],
    cwd: opts.cwd ?? ROOT,
    env: {
      HUB_CONFIG_DIR: opts.configDir,
      HUB_SKIP_PKG_DISCOVERY: "1",
      // A port where no hub listens, so a build never reaches a hub the test did not start.
      HUB_PORT: String(freePort()),
      // `deno task` sets INIT_CWD; an inherited one would move relative paths out of `cwd`.
      INIT_CWD: "",
      NO_COLOR: "1",
      ...opts.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs `hub-plugin <args>` to completion; throws when it runs longer than `timeoutMs` (60 s). */
export function runPluginCli(
  args: string[],
  opts: PluginCliEnv & { timeoutMs?: number },
): Promise<RunResult> {
  return runCommand(`hub-plugin ${args.join(" ")}`, pluginCliCommand(args, opts), opts.timeoutMs);
}

export type SpawnedPluginCli = SpawnedProcess;

/** Starts `hub-plugin <args>` (e.g. `build --watch`) without waiting for it to finish. */
export function spawnPluginCli(args: string[], opts: PluginCliEnv): SpawnedPluginCli {
  return spawnCommand(`hub-plugin ${args.join(" ")}`, pluginCliCommand(args, opts));
}

/** A tool of a hand-written `dist/tools.json`: a name, or a full entry. */
export type ToolSpec = string | {
  name: string;
  displayName?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
};

export interface PluginFolderOptions {
  /** Short plugin name; the package is `hub-plugin-<name>` unless `packageName` says otherwise. */
  name: string;
  packageName?: string;
  version?: string;
  /** Default: one tool, `ping`. */
  tools?: ToolSpec[];
  /** Merged over `{ displayName, urlPatterns }` in package.json's `hub` field. */
  hub?: Record<string, unknown>;
  /** Replaces package.json's text as is (e.g. broken JSON). */
  packageJsonText?: string;
  /** Write dist/tools.json (default true). */
  withTools?: boolean;
  /** Write dist/adapter.iife.js (default true). */
  withAdapter?: boolean;
  /** Overrides fields of dist/tools.json (sdkVersion, plugin, version). */
  toolsFile?: Record<string, unknown>;
}

function toolEntry(spec: ToolSpec) {
  const tool = typeof spec === "string" ? { name: spec } : spec;
  return {
    name: tool.name,
    displayName: tool.displayName ?? tool.name.replace(/_/g, " "),
    description: tool.description ?? `Test tool ${tool.name}.`,
    inputSchema: tool.inputSchema ?? {
      type: "object",
      properties: { text: { type: "string", description: "Any text" } },
      required: ["text"],
    },
  };
}

/**
 * Writes a ready-built plugin folder at `dir` (created if needed): package.json with a `hub` field,
 * dist/tools.json and dist/adapter.iife.js, as `hub-plugin build` would leave them. Returns `dir`.
 */
export async function writePluginFolder(dir: string, opts: PluginFolderOptions): Promise<string> {
  const version = opts.version ?? "1.0.0";
  const packageName = opts.packageName ?? `hub-plugin-${opts.name}`;
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  const pkg = {
    name: packageName,
    version,
    description: `Test plugin ${opts.name}`,
    hub: { displayName: `Plugin ${opts.name}`, urlPatterns: ["*://example.com/*"], ...opts.hub },
  };
  await Deno.writeTextFile(
    join(dir, "package.json"),
    opts.packageJsonText ?? JSON.stringify(pkg, null, 2) + "\n",
  );
  if (opts.withTools ?? true) {
    const tools = {
      sdkVersion: SDK_VERSION,
      adapterContract: ADAPTER_CONTRACT,
      plugin: opts.name,
      version,
      tools: (opts.tools ?? ["ping"]).map(toolEntry),
      ...opts.toolsFile,
    };
    await Deno.writeTextFile(join(dir, "dist", "tools.json"), JSON.stringify(tools, null, 2));
  }
  if (opts.withAdapter ?? true) {
    await Deno.writeTextFile(
      join(dir, "dist", "adapter.iife.js"),
      `/* test adapter ${opts.name} ${version} */ (() => {})();\n`,
    );
  }
  return dir;
}

export interface PluginProjectOptions {
  /** Short name; package.json's name is `hub-plugin-<name>`. */
  name: string;
  /** Text of src/index.ts. */
  source: string;
  /** Merged over `{ displayName, description, urlPatterns }` in the `hub` field. */
  hub?: Record<string, unknown>;
  version?: string;
}

/** Writes a plugin source project (package.json + src/index.ts) for `hub-plugin build`. */
export async function writePluginProject(dir: string, opts: PluginProjectOptions): Promise<string> {
  await Deno.mkdir(join(dir, "src"), { recursive: true });
  const pkg = {
    name: `hub-plugin-${opts.name}`,
    version: opts.version ?? "0.1.0",
    type: "module",
    hub: {
      displayName: `Plugin ${opts.name}`,
      description: `Tools for ${opts.name}`,
      urlPatterns: ["*://example.com/*"],
      ...opts.hub,
    },
  };
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  await Deno.writeTextFile(join(dir, "src", "index.ts"), opts.source);
  return dir;
}

/** Source of a plugin whose tools each take `{ text: string }` (a valid build input). */
export function simplePluginSource(toolNames: string[]): string {
  const tools = toolNames.map((name) =>
    `    defineTool({
      name: ${JSON.stringify(name)},
      description: ${JSON.stringify(`Echoes text (${name}).`)},
      input: z.object({ text: z.string().describe("What to echo"), count: z.number().int().optional() }),
      handle: ({ text }) => ({ text }),
    }),`
  ).join("\n");
  return `import { definePlugin, defineTool, z } from "@tabhub/sdk";

export default definePlugin({
  tools: [
${tools}
  ],
});
`;
}
