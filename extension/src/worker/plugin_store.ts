/** The plugins the hub synced (`sync.full`, `plugin.update`, `plugin.uninstall`), by name. */
import type { SyncPlugin } from "../../../protocol/events.ts";
import { urlMatches } from "../../../protocol/match_pattern.ts";

export interface PluginStore {
  all(): SyncPlugin[];
  get(name: string): SyncPlugin | undefined;
  /** Takes the full list; returns the names that are gone. */
  replace(plugins: SyncPlugin[]): string[];
  set(plugin: SyncPlugin): void;
  remove(name: string): boolean;
  /** The plugins whose URL patterns match `url`. */
  matching(url: string | undefined): SyncPlugin[];
}

export function pluginMatches(plugin: SyncPlugin, url: string | undefined): boolean {
  return url !== undefined && urlMatches(url, plugin.urlPatterns, plugin.excludePatterns);
}

export function createPluginStore(): PluginStore {
  let plugins = new Map<string, SyncPlugin>();
  return {
    all: () => [...plugins.values()],
    get: (name) => plugins.get(name),
    replace(list) {
      const next = new Map(list.map((p) => [p.name, p]));
      const gone = [...plugins.keys()].filter((name) => !next.has(name));
      plugins = next;
      return gone;
    },
    set(plugin) {
      plugins.set(plugin.name, plugin);
    },
    remove: (name) => plugins.delete(name),
    matching: (url) => [...plugins.values()].filter((p) => pluginMatches(p, url)),
  };
}
