/**
 * What the hub's parts need of the plugin host: load, reload (all, or one folder in dev mode),
 * the current registry and what failed. Declared apart from the implementation (./plugin_host.ts:
 * discovery, precedence, adapters), so changes/, dev/, health.ts and the wiring depend on this shape
 * only.
 */
import type { DiscoveryError, FailedPlugin } from "../../protocol/health.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Registry } from "./registry_interface.ts";

export interface ReloadSummary {
  plugins: number;
  durationMs: number;
}

export interface ReloadStats {
  count: number;
  lastTimestamp: number;
  lastDurationMs: number;
}

/**
 * What reloading one plugin folder did: `reloaded` (its new build is in the registry), `unchanged`
 * (the build is the same), `failed` (the new build does not load; the last good one keeps serving
 * and the reason is in `failedPlugins`), or `full` (the folder is not a loaded plugin, or its name
 * changed: only a full reload can place it).
 */
export type PluginReload =
  | { kind: "reloaded"; plugin: string; durationMs: number }
  | { kind: "unchanged"; plugin: string }
  | { kind: "failed"; plugin: string; error: string }
  | { kind: "full"; reason: string };

export interface PluginHost {
  /** Discovery at startup; not counted as a reload. */
  load(): Promise<ReloadSummary>;
  /** `POST /reload` and friends; concurrent calls share one run. */
  reload(): Promise<ReloadSummary>;
  /**
   * Loads one local plugin folder again and swaps it into the registry (dev mode). Not counted as
   * a reload; runs after any reload in progress, and reloads requested meanwhile wait for it.
   */
  reloadPlugin(dir: string): Promise<PluginReload>;
  registry(): Registry;
  failedPlugins(): FailedPlugin[];
  discoveryErrors(): DiscoveryError[];
  /** Plugin names several sources claim (all refused, see `failedPlugins`). */
  contested(): string[];
  stats(): ReloadStats;
  /** Called after every load or reload with the new registry. */
  onChange(listener: (registry: Registry) => void): void;
  /**
   * The config the last full discovery (startup load or reload) that went through read: its
   * plugin folders and settings are what the registry serves. Undefined before the first one.
   * Read only: dev mode compares a config.json edit with it.
   */
  discoveredWith(): Readonly<HubConfig> | undefined;
}
