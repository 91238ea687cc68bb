/**
 * The plugins the hub synced (`sync.full`, `plugin.update`, `plugin.uninstall`), by name. Only
 * enabled plugins (not `off`, see `SyncPlugin.enabled`) are ever matched to tabs, so an `off`
 * plugin's adapter is never injected, and its page events are ignored.
 */
import type { SyncPlugin } from "../../../protocol/events.ts";
import { urlMatches } from "../../../protocol/match_pattern.ts";

export interface PluginStore {
  all(): SyncPlugin[];
  get(name: string): SyncPlugin | undefined;
  /**
   * Takes the full list; returns the names whose adapters must leave open tabs: plugins that are
   * gone, and plugins that are not enabled but were (or were not known yet).
   */
  replace(plugins: SyncPlugin[]): string[];
  /** Adds or replaces one plugin; returns true when its adapter must leave open tabs (now off). */
  set(plugin: SyncPlugin): boolean;
  remove(name: string): boolean;
  /** The enabled plugins whose URL patterns match `url`. */
  matching(url: string | undefined): SyncPlugin[];
}

export function pluginMatches(plugin: SyncPlugin, url: string | undefined): boolean {
  return url !== undefined && urlMatches(url, plugin.urlPatterns, plugin.excludePatterns);
}

/** Whether the adapter may run in tabs (an older hub that does not say: no). */
export function pluginEnabled(plugin: SyncPlugin | undefined): boolean {
  return plugin?.enabled === true;
}

export function createPluginStore(): PluginStore {
  let plugins = new Map<string, SyncPlugin>();
  /**
   * Not enabled, and was enabled or unknown (this worker may have restarted since it injected):
   * its adapter may still sit in tabs.
   */
  const turnedOff = (before: SyncPlugin | undefined, after: SyncPlugin) =>
    (before === undefined || pluginEnabled(before)) && !pluginEnabled(after);
  return {
    all: () => [...plugins.values()],
    get: (name) => plugins.get(name),
    replace(list) {
      const next = new Map(list.map((p) => [p.name, p]));
      const gone = [...plugins.keys()].filter((name) => !next.has(name));
      const off = list.filter((p) => turnedOff(plugins.get(p.name), p)).map((p) => p.name);
      plugins = next;
      return [...gone, ...off];
    },
    set(plugin) {
      const off = turnedOff(plugins.get(plugin.name), plugin);
      plugins.set(plugin.name, plugin);
      return off;
    },
    remove: (name) => plugins.delete(name),
    matching: (url) =>
      [...plugins.values()].filter((p) => pluginEnabled(p) && pluginMatches(p, url)),
  };
}
