/**
 * The plugin package module, loaded on its first use: `hub start` serves without it (it brings
 * semver and the npm code, about 10 ms of start-up) until the side panel or an update check asks.
 * Same interface and behaviour as `createPluginPackages`.
 */
import type { PluginPackages, PluginPackagesOptions } from "./plugin_packages.ts";

export function lazyPluginPackages(options: PluginPackagesOptions): PluginPackages {
  let made: Promise<PluginPackages> | undefined;
  const packages = () =>
    made ??= import("./plugin_packages.ts").then((m) => m.createPluginPackages(options));
  return {
    search: async (query) => await (await packages()).search(query),
    install: async (spec) => await (await packages()).install(spec),
    update: async (spec) => await (await packages()).update(spec),
    remove: async (spec) => await (await packages()).remove(spec),
    checkUpdates: async () => await (await packages()).checkUpdates(),
    installed: async () => await (await packages()).installed(),
  };
}
