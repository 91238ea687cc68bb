/**
 * The plugin package module, imported on its first use or by `load()`: `hub start` starts serving
 * without it (it brings semver and the npm code) and loads it just after (`Hub.preload`). Same
 * interface and behaviour as `createPluginPackages`.
 */
import type { PluginPackages, PluginPackagesOptions } from "./plugin_packages.ts";
import { loadOnce } from "../cache/load_once.ts";

export interface LazyPluginPackages extends PluginPackages {
  /** Imports the module now, ahead of its first use. */
  load(): Promise<void>;
}

export function lazyPluginPackages(options: PluginPackagesOptions): LazyPluginPackages {
  const packages = loadOnce(() =>
    import("./plugin_packages.ts").then((m) => m.createPluginPackages(options))
  );
  return {
    load: () => packages().then(() => {}),
    search: async (query) => await (await packages()).search(query),
    install: async (spec) => await (await packages()).install(spec),
    update: async (spec) => await (await packages()).update(spec),
    remove: async (spec) => await (await packages()).remove(spec),
    checkUpdates: async () => await (await packages()).checkUpdates(),
    installed: async () => await (await packages()).installed(),
  };
}
