/**
 * The plugin registry of one reload: loaded plugins with their settings resolved, and their tools
 * under prefixed names (`<plugin>__<tool>`) with final input schemas and validators. Immutable;
 * each reload builds a new one.
 */
import type { PluginDetail } from "../../protocol/health.ts";
import { toolName } from "../../protocol/call_contract.ts";
import type { PluginManifest } from "../../protocol/plugin_manifest.ts";
import { instancesOf, resolveSettings } from "../../protocol/plugin_settings.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { LoadedPlugin } from "./load_plugin.ts";
import { injectParameters } from "./tool_schema.ts";
import type { ValidatorCache } from "./validators.ts";
import { packageOfFolder } from "../../core/plugin_source/source_identity.ts";
import type { RegisteredPlugin, RegisteredTool, Registry } from "./registry_interface.ts";

export function adapterFileName(manifest: PluginManifest, hash: string): string {
  return `${manifest.name}-${hash}.js`;
}

/** A loaded plugin precedence kept; `overrides` when this local plugin overrides a package. */
export type ChosenPlugin = LoadedPlugin & { overrides?: boolean };

function registerPlugin(
  loaded: ChosenPlugin,
  config: HubConfig,
  validators: ValidatorCache,
  keys: Set<string>,
): RegisteredPlugin {
  const { manifest } = loaded;
  const settings = resolveSettings(manifest.configSchema, config.settings[manifest.name] ?? {});
  const instances = instancesOf(manifest.configSchema, settings);
  const tools = loaded.tools.map((tool): RegisteredTool => {
    const inputSchema = injectParameters(tool.inputSchema, instances);
    const { key, validate } = validators.validator(inputSchema);
    keys.add(key);
    return {
      name: toolName(manifest.name, tool.name),
      baseName: tool.name,
      plugin: manifest.name,
      displayName: tool.displayName,
      description: tool.description,
      inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      validate,
    };
  });
  return {
    name: manifest.name,
    displayName: manifest.displayName,
    description: manifest.description,
    version: manifest.version,
    packageName: loaded.source === "npm" ? packageOfFolder(loaded.dir) : manifest.packageName,
    source: loaded.source,
    dir: loaded.dir,
    sourceId: loaded.sourceId,
    ...(loaded.overrides ? { overrides: true } : {}),
    sdkVersion: loaded.sdkVersion,
    urlPatterns: manifest.urlPatterns,
    excludePatterns: manifest.excludePatterns,
    configSchema: manifest.configSchema,
    settings,
    instances,
    iconSvg: loaded.iconSvg,
    adapterFile: adapterFileName(manifest, loaded.adapter.hash),
    adapterHash: loaded.adapter.hash,
    tools,
  };
}

/** Builds the registry; `loaded` must already be free of duplicate names. */
export function buildRegistry(
  loaded: ChosenPlugin[],
  config: HubConfig,
  validators: ValidatorCache,
): Registry {
  const schemaKeys = new Set<string>();
  const plugins = loaded
    .map((p) => registerPlugin(p, config, validators, schemaKeys))
    .sort((a, b) => a.name.localeCompare(b.name));
  return registryOf(plugins, schemaKeys);
}

/** A registry over plugins already registered, with lookups by plugin and tool name. */
export function registryOf(
  plugins: RegisteredPlugin[],
  schemaKeys: Set<string> = new Set(),
): Registry {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const tools = new Map(plugins.flatMap((p) => p.tools.map((t) => [t.name, t] as const)));
  return {
    plugins,
    plugin: (name) => byName.get(name),
    tool: (name) => tools.get(name),
    schemaKeys,
  };
}

/** `No plugin "x" (plugins: a, b).`: what every lookup of a missing plugin says. */
export function noPluginMessage(name: string, known: string[]): string {
  return `No plugin "${name}" (plugins: ${known.join(", ") || "none"}).`;
}

export function emptyRegistry(): Registry {
  return registryOf([]);
}

/** A plugin as `/health` shows it, with the tabs the extension reported and its log buffer. */
export function toPluginDetail(
  plugin: RegisteredPlugin,
  tabs: { state: PluginDetail["tabState"]; tabs: PluginDetail["tabs"] } = {
    state: "closed",
    tabs: [],
  },
  logBufferSize = 0,
): PluginDetail {
  const detail: PluginDetail = {
    name: plugin.name,
    displayName: plugin.displayName,
    toolCount: plugin.tools.length,
    tools: plugin.tools.map((t) => t.name),
    tabState: tabs.state,
    tabs: tabs.tabs,
    source: plugin.source,
    sdkVersion: plugin.sdkVersion ?? null,
    logBufferSize,
  };
  if (plugin.iconSvg) detail.iconSvg = plugin.iconSvg;
  return detail;
}
