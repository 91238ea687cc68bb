/**
 * `hub plugin list [--json] [-v]` (alias `ls`): the plugins of the running hub (`/health`), with
 * their version, package or folder and permission, and a warning under each plugin that runs on
 * every site; with no hub running, what the hub would load: the global plugin packages and the
 * local plugin folders of config.json.
 */
import { dirname, join } from "node:path";
import { cliClient, cliConfigStore, warn } from "../../core/client/client_context.ts";
import type { HubClient } from "../../core/client/hub_client.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { InstalledPackage } from "../../core/packages/installed_packages.ts";
import { listLocalPlugins, type LocalPlugin } from "../../core/packages/local_plugins.ts";
import type { FailedPlugin, HealthPayload } from "../../protocol/health.ts";
import type { Permission } from "../../protocol/permission.ts";
import { TOOLS_FILE } from "../../protocol/plugin_manifest.ts";
import { MAX_PACKAGE_JSON_BYTES, MAX_TOOLS_FILE_BYTES } from "../../protocol/plugin_limits.ts";
import { readJsonFile } from "../../core/files/json_file.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { broadWarning } from "../../protocol/broad_patterns.ts";
import { sourceIdentity } from "../../core/plugin_source/source_identity.ts";
import { reviewReason } from "../../core/plugin_source/review_rules.ts";
import { pluginCommandContext } from "./context.ts";
import { printJson } from "../json_output.ts";
import { visibleText } from "../../protocol/visible_text.ts";

export interface ListedPlugin {
  name: string;
  version?: string;
  source: "npm" | "local";
  packageName?: string;
  dir?: string;
  /**
   * The plugin's permission as the hub applies it (off when it has none, or when it was granted
   * to another source or version of the same plugin name).
   */
  permission: Permission;
  urlPatterns?: string[];
  /** Set when the URL patterns cover every site: "Runs on every website you visit (…)". */
  broad?: string;
  /** Loaded by the running hub (false when listed offline). */
  loaded: boolean;
  toolCount?: number;
  tools?: string[];
}

export interface PluginList {
  hub: { running: boolean; port: number };
  plugins: ListedPlugin[];
  failed: FailedPlugin[];
}

export interface Found {
  source: "npm" | "local";
  plugin?: string;
  version?: string;
  packageName?: string;
  dir: string;
}

/**
 * The plugin's permission as the hub applies it: off when it has none, or when its reviewed
 * identity is another source or version (the hub resets such grants when it loads the plugin).
 * `overrides`: this local plugin overrides a package of the same name.
 */
export async function permissionOf(
  config: HubConfig,
  plugin: string,
  s?: Found,
  overrides = false,
): Promise<Permission> {
  const entry = ownValue(config.permissions, plugin);
  if (!entry) return "off";
  if (!s) return entry.permission;
  const reviewed = { version: s.version ?? "", sourceId: await sourceIdentity(s), overrides };
  return reviewReason(entry, reviewed) === undefined ? entry.permission : "off";
}

/** Whether the local source `s` overrides a package that claims the same plugin name. */
export function overridesPackage(s: Found | undefined, sources: Found[]): boolean {
  return s?.source === "local" &&
    sources.some((o) => o.source === "npm" && o.plugin !== undefined && o.plugin === s.plugin);
}

/**
 * The `hub.urlPatterns` of the package.json in `dir`, read through the bounded reader (a FIFO, a
 * device or an oversized file is refused at once); a file that cannot be used gives a short note.
 */
export async function urlPatternsOf(
  dir: string | undefined,
  note: (message: string) => void = warn,
): Promise<string[] | undefined> {
  if (dir === undefined) return undefined;
  const path = join(dir, "package.json");
  try {
    const pkg = await readJsonFile(path, MAX_PACKAGE_JSON_BYTES) as {
      hub?: { urlPatterns?: unknown };
    };
    const patterns = pkg?.hub?.urlPatterns;
    return Array.isArray(patterns) ? patterns.filter((p) => typeof p === "string") : undefined;
  } catch (error) {
    note(
      visibleText(
        `Cannot read the plugin's URL patterns: ${(error as Error).message}`.slice(0, 300),
      ),
    );
    return undefined;
  }
}

/** The URL patterns and, when they cover every site, the warning. */
async function reach(
  dir: string | undefined,
): Promise<Pick<ListedPlugin, "urlPatterns" | "broad">> {
  const urlPatterns = await urlPatternsOf(dir);
  const broad = broadWarning(urlPatterns ?? []);
  return { ...(urlPatterns ? { urlPatterns } : {}), ...(broad ? { broad } : {}) };
}

async function toolNames(dir: string): Promise<string[] | undefined> {
  try {
    const file = await readJsonFile(join(dir, TOOLS_FILE), MAX_TOOLS_FILE_BYTES); // bounded
    const tools = (file as { tools?: unknown } | null)?.tools;
    return Array.isArray(tools) ? tools.map((t) => String(t?.name)) : undefined;
  } catch {
    return undefined;
  }
}

/** Every plugin source on disk: the global packages, then the local plugin folders. */
function found(packages: InstalledPackage[], locals: LocalPlugin[]): Found[] {
  return [
    ...packages.map((p): Found => ({
      source: "npm",
      plugin: p.plugin,
      version: p.version,
      packageName: p.name,
      dir: p.dir,
    })),
    ...locals.map((l): Found => ({
      source: "local",
      plugin: l.plugin,
      version: l.version,
      packageName: l.packageName,
      dir: l.dir,
    })),
  ];
}

function fromHealth(
  health: HealthPayload,
  sources: Found[],
  config: HubConfig,
): Promise<ListedPlugin[]> {
  return Promise.all(health.pluginDetails.map(async (p) => {
    const source = sources.find((s) => s.plugin === p.name && s.source === p.source);
    return {
      name: p.name,
      version: source?.version,
      source: p.source,
      packageName: source?.packageName,
      dir: source?.dir,
      permission: await permissionOf(config, p.name, source, overridesPackage(source, sources)),
      ...(await reach(source?.dir)),
      loaded: true,
      toolCount: p.toolCount,
      tools: p.tools,
    };
  }));
}

async function offline(sources: Found[], config: HubConfig): Promise<ListedPlugin[]> {
  const listed: ListedPlugin[] = [];
  for (const s of sources) {
    const tools = await toolNames(s.dir);
    listed.push({
      name: s.plugin ?? s.dir,
      version: s.version,
      source: s.source,
      packageName: s.packageName,
      dir: s.dir,
      permission: await permissionOf(config, s.plugin ?? "", s, overridesPackage(s, sources)),
      ...(await reach(s.dir)),
      loaded: false,
      toolCount: tools?.length,
      tools,
    });
  }
  return listed;
}

/**
 * The CLI's config, every plugin source on disk (`found`) and the client of the hub on `port`.
 * A failure to list the global packages goes to `packagesFailed` and counts as none.
 */
export async function diskSources(
  port: string | undefined,
  packagesFailed: (error: unknown) => void,
): Promise<{ config: HubConfig; sources: Found[]; client: HubClient }> {
  const ctx = pluginCommandContext();
  const store = cliConfigStore(ctx.paths);
  const config = await store.load();
  const packages = await ctx.packages.installed().catch((error) => {
    packagesFailed(error);
    return [];
  });
  const sources = found(packages, await listLocalPlugins(config, dirname(store.path)));
  return { config, sources, client: await cliClient(port, ctx.paths) };
}

/** Collects the list: from the running hub when one answers, else from config and packages. */
export async function collectPluginList(port: string | undefined): Promise<PluginList> {
  const { config, sources, client } = await diskSources(port, (error) => {
    warn(`Cannot list the global plugin packages: ${(error as Error).message}`);
  });
  const health = await client.health();
  if (!health) {
    return {
      hub: { running: false, port: client.port },
      plugins: await offline(sources, config),
      failed: [],
    };
  }
  return {
    hub: { running: true, port: client.port },
    plugins: await fromHealth(health, sources, config),
    failed: health.failedPlugins,
  };
}

export async function pluginListCommand(
  options: { json?: boolean; verbose?: boolean; port?: string },
) {
  const list = await collectPluginList(options.port);
  if (options.json) return printJson(list);
  console.log(formatPluginList(list, options.verbose === true));
}

/** The list with every plugin-supplied word escaped (protocol/visible_text.ts), one line each. */
function shownList(list: PluginList): PluginList {
  const v = (text: string | undefined) => text === undefined ? undefined : visibleText(text);
  return {
    ...list,
    plugins: list.plugins.map((p) => ({
      ...p,
      name: visibleText(p.name),
      version: v(p.version),
      packageName: v(p.packageName),
      dir: v(p.dir),
      broad: v(p.broad),
      tools: p.tools?.map((t) => visibleText(t)),
    })),
    failed: list.failed.map((f) => ({
      ...f,
      path: visibleText(f.path),
      error: visibleText(f.error),
    })),
  };
}

export function formatPluginList(found: PluginList, verbose: boolean): string {
  const list = shownList(found);
  const lines = [
    list.hub.running
      ? `Plugins of the hub running on port ${list.hub.port}:`
      : `No hub is running on port ${list.hub.port}; the plugins it would load:`,
  ];
  if (list.plugins.length === 0) {
    lines.push(
      '  (none) Find plugins with "hub plugin search", install one with "hub plugin install ' +
        '<name>".',
    );
  }
  const width = Math.min(30, Math.max(0, ...list.plugins.map((p) => p.name.length)));
  for (const p of list.plugins) {
    const tools = p.toolCount === undefined ? "? tools" : `${p.toolCount} tool` +
      (p.toolCount === 1 ? "" : "s");
    const where = p.source === "npm" ? (p.packageName ?? "") : (p.dir ?? "");
    lines.push(
      `  ${p.name.padEnd(width)}  ${(p.version ?? "?").padEnd(8)}  ${p.source.padEnd(5)}  ` +
        `${p.permission.padEnd(4)}  ${tools.padEnd(8)}  ${where}`,
    );
    if (p.broad) lines.push(`      warning: ${p.broad}`);
    if (verbose) {
      if (p.dir) lines.push(`      folder: ${p.dir}`);
      if (p.tools?.length) lines.push(`      tools:  ${p.tools.join(", ")}`);
    }
  }
  for (const f of list.failed) lines.push(`  failed: ${f.path}: ${f.error}`);
  return lines.join("\n");
}
