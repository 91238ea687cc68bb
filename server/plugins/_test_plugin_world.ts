/** A temp world for plugin host tests: built plugin folders, a config dir, an npm root. */
import { join } from "node:path";
import { SDK_VERSION } from "../../protocol/version.ts";
import { ADAPTER_CONTRACT } from "../../protocol/plugin_manifest.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { silentLogger } from "../log/logger.ts";
import { createPluginHost } from "./plugin_host.ts";
import type { PluginHost } from "./plugin_host_interface.ts";

export interface PluginSpec {
  /** Short plugin name; the package is `hub-plugin-<name>` unless `packageName` is set. */
  name: string;
  packageName?: string;
  version?: string;
  /** Overrides merged into dist/tools.json; null leaves the file out. */
  toolsFile?: Record<string, unknown> | null;
  /** Adapter source; null leaves the file out. */
  adapter?: string | null;
  /** Raw package.json text instead of the generated one. */
  packageJson?: string;
}

/** Writes a built plugin folder (package.json with a hub field, dist/tools.json, adapter). */
export async function writePlugin(dir: string, spec: PluginSpec): Promise<string> {
  const version = spec.version ?? "1.0.0";
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  const pkg = {
    name: spec.packageName ?? `hub-plugin-${spec.name}`,
    version,
    hub: { urlPatterns: ["*://example.com/*"] },
  };
  await Deno.writeTextFile(join(dir, "package.json"), spec.packageJson ?? JSON.stringify(pkg));
  if (spec.toolsFile !== null) {
    const tools = {
      sdkVersion: SDK_VERSION,
      adapterContract: ADAPTER_CONTRACT,
      plugin: spec.name,
      version,
      tools: [{
        name: "get_items",
        displayName: "Get items",
        description: "Lists items",
        inputSchema: { type: "object", properties: { q: { type: "string" } } },
      }],
      ...spec.toolsFile,
    };
    await Deno.writeTextFile(join(dir, "dist", "tools.json"), JSON.stringify(tools));
  }
  if (spec.adapter !== null) {
    await Deno.writeTextFile(
      join(dir, "dist", "adapter.iife.js"),
      spec.adapter ?? `(() => { globalThis.loaded = ${JSON.stringify(spec.name)}; })();`,
    );
  }
  return dir;
}

export interface Ctx {
  dir: string;
  configDir: string;
  adaptersDir: string;
  npmDir: string;
  config: HubConfig;
  /** How many discovery runs asked for the npm root. */
  npmRuns: () => number;
  host: (withNpm?: boolean) => PluginHost;
}

/** A temp world (config dir, npm root, adapters dir) for a plugin host; removed afterwards. */
export async function withWorld(fn: (ctx: Ctx) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-host-" }));
  const configDir = join(dir, "config");
  const npmDir = join(dir, "npm");
  await Deno.mkdir(configDir);
  await Deno.mkdir(npmDir);
  let runs = 0;
  let now = 1_000;
  const ctx: Ctx = {
    dir,
    configDir,
    npmDir,
    adaptersDir: join(configDir, "extension", "adapters"),
    config: defaultConfig(),
    npmRuns: () => runs,
    host: (withNpm = true) =>
      createPluginHost({
        config: () => ctx.config,
        configDir,
        adaptersDir: ctx.adaptersDir,
        npmRoot: withNpm ? () => (runs++, Promise.resolve(npmDir)) : undefined,
        logger: silentLogger,
        clock: () => (now += 10),
        cwd: configDir,
      }),
  };
  try {
    await fn(ctx);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Adds a good local plugin "good" and returns its folder. */
export async function addGood(ctx: Ctx): Promise<string> {
  const dir = await writePlugin(join(ctx.dir, "good"), { name: "good" });
  ctx.config.localPlugins.push(dir);
  return dir;
}
