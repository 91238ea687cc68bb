/**
 * Owns the plugin registry of a running hub: discovers and loads plugins at startup and on every
 * reload, applies precedence (a local plugin overrides a package of the same name; any other two
 * sources claiming one name are both refused), writes the
 * adapters for the extension, and swaps in the new registry at once. Concurrent reloads share one
 * run. One broken plugin never blocks the others: it lands in `failedPlugins`. Dev mode reloads a
 * rebuilt local plugin alone (`reloadPlugin`); a broken rebuild keeps the last good build serving.
 */
import type { DiscoveryError, FailedPlugin } from "../../protocol/health.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger_interface.ts";
import { syncAdapters } from "./adapters_dir.ts";
import { discoverPlugins } from "./discover.ts";
import { type LoadedPlugin, loadPlugin } from "./load_plugin.ts";
import type { NpmRoot } from "./npm_root.ts";
import { adapterFileName, buildRegistry, type ChosenPlugin, emptyRegistry } from "./registry.ts";
import type { Registry } from "./registry_interface.ts";
import { ValidatorCache } from "./validators.ts";
import { describeSource } from "../../core/plugin_source/source_identity.ts";
import { clip } from "../../protocol/clip.ts";
import type {
  PluginHost,
  PluginReload,
  ReloadStats,
  ReloadSummary,
} from "./plugin_host_interface.ts";

export interface PluginHostDeps {
  config(): HubConfig;
  configDir: string;
  adaptersDir: string;
  /** undefined: global packages are not discovered (HUB_SKIP_PKG_DISCOVERY=1). */
  npmRoot?: NpmRoot;
  logger: Logger;
  clock?: () => number;
  cwd?: string;
}

/** Whether two loads of a plugin are the same build (manifest, tools, adapter and icon). */
function sameBuild(a: LoadedPlugin, b: LoadedPlugin): boolean {
  const key = (p: LoadedPlugin) =>
    JSON.stringify([p.manifest, p.tools, p.adapter.hash, p.iconSvg, p.sdkVersion]);
  return key(a) === key(b);
}

/**
 * How a loaded plugin's source reads in messages: "package x (dir)", "folder dir", or, for a
 * folder reached through a link, "folder real (dir)".
 */
function sourceLabel(plugin: LoadedPlugin): string {
  const named = describeSource(plugin.sourceId);
  return named === `folder ${plugin.dir}` ? named : `${named} (${plugin.dir})`;
}

/**
 * What precedence kept: one plugin per name (a local one overriding a package is marked
 * `overrides`), and refusals.
 */
export interface Precedence {
  chosen: ChosenPlugin[];
  /** Names several sources claim; none of them serves. */
  contested: string[];
}

/** A name many sources claim still gets a bounded message. */
const MAX_CONFLICT_MESSAGE = 2_000;

function refuseAll(name: string, claimants: LoadedPlugin[], failed: FailedPlugin[]): void {
  const all = claimants.map(sourceLabel);
  for (const plugin of claimants) {
    const others = claimants.filter((p) => p !== plugin).map(sourceLabel).join(" and ");
    failed.push({
      path: plugin.dir,
      error: clip(
        `Plugin name "${name}" is claimed by ${all.length} sources: ${all.join(", ")}. ` +
          `None of them is loaded, so neither can take the other's name or permissions. Remove ` +
          `the one you do not want ("hub plugin remove <package>"), or give one another name ` +
          `("hub": { "name": ... } in its package.json). This one: ${sourceLabel(plugin)}; ` +
          `also claimed by ${others}.`,
        MAX_CONFLICT_MESSAGE,
      ),
    });
  }
}

/**
 * Keeps one plugin per name. A single local plugin overrides any packages of its name; otherwise
 * two or more sources claiming one name are all refused, each failure naming the others.
 */
export function applyPrecedence(
  loaded: LoadedPlugin[],
  failed: FailedPlugin[],
  logger: Logger,
): Precedence {
  const byName = new Map<string, LoadedPlugin[]>();
  for (const plugin of loaded) {
    const list = byName.get(plugin.manifest.name);
    if (list) list.push(plugin);
    else byName.set(plugin.manifest.name, [plugin]);
  }
  const out: Precedence = { chosen: [], contested: [] };
  for (const [name, claimants] of byName) {
    const locals = claimants.filter((p) => p.source === "local");
    if (claimants.length === 1) out.chosen.push(claimants[0]);
    else if (locals.length === 1) {
      const packages = claimants.filter((p) => p.source === "npm").map(sourceLabel);
      logger.info(
        `Local plugin "${name}" at ${locals[0].dir} overrides ${packages.join(", ")}; it ` +
          "starts unreviewed (off) until you allow it.",
      );
      out.chosen.push({ ...locals[0], overrides: true });
    } else {
      refuseAll(name, claimants, failed);
      out.contested.push(name);
    }
  }
  return out;
}

export function createPluginHost(deps: PluginHostDeps): PluginHost {
  const clock = deps.clock ?? Date.now;
  let registry = emptyRegistry();
  let failed: FailedPlugin[] = [];
  let errors: DiscoveryError[] = [];
  let chosen: ChosenPlugin[] = [];
  let contested: string[] = [];
  let discoveredWith: Readonly<HubConfig> | undefined;
  const validators = new ValidatorCache();
  const stats: ReloadStats = { count: 0, lastTimestamp: 0, lastDurationMs: 0 };
  const listeners: ((r: Registry) => void)[] = [];

  async function execute(): Promise<ReloadSummary> {
    const started = clock();
    const config = deps.config();
    const found = await discoverPlugins({
      config,
      configDir: deps.configDir,
      npmRoot: deps.npmRoot,
      cwd: deps.cwd,
    });
    const nextFailed: FailedPlugin[] = [];
    const results = await Promise.allSettled(found.candidates.map(loadPlugin));
    const loaded: LoadedPlugin[] = [];
    results.forEach((result, i) => {
      if (result.status === "fulfilled") loaded.push(result.value);
      else nextFailed.push({ path: found.candidates[i].dir, error: result.reason.message });
    });
    const precedence = applyPrecedence(loaded, nextFailed, deps.logger);
    await install(precedence.chosen, config);
    chosen = precedence.chosen;
    contested = precedence.contested;
    discoveredWith = config;
    failed = nextFailed;
    errors = found.errors;
    for (const f of failed) deps.logger.warn(`Plugin at ${f.path} failed to load: ${f.error}`);
    for (const e of errors) deps.logger.warn(`Plugin discovery (${e.specifier}): ${e.error}`);
    for (const listener of listeners) listener(registry);
    return { plugins: registry.plugins.length, durationMs: clock() - started };
  }

  /** Builds the registry of `plugins`, writes their adapters and makes it the current one. */
  async function install(plugins: ChosenPlugin[], config: HubConfig): Promise<Registry> {
    const next = buildRegistry(plugins, config, validators);
    await syncAdapters(
      deps.adaptersDir,
      plugins.map((p) => ({
        fileName: adapterFileName(p.manifest, p.adapter.hash),
        code: p.adapter.code,
      })),
    );
    validators.retain(next.schemaKeys);
    registry = next;
    return next;
  }

  /** Reloads the loaded local plugin in `dir` alone; see `PluginReload`. */
  async function executeOne(dir: string): Promise<PluginReload> {
    const started = clock();
    const index = chosen.findIndex((p) => p.dir === dir && p.source === "local");
    if (index < 0) return { kind: "full", reason: `${dir} is not a loaded local plugin` };
    const previous = chosen[index];
    const name = previous.manifest.name;
    let next: ChosenPlugin;
    try {
      // Still the same folder in the same place among the sources: it overrides what it did.
      next = {
        ...await loadPlugin({ source: "local", dir, specifier: dir }),
        ...(previous.overrides ? { overrides: true } : {}),
      };
    } catch (error) {
      const message = `${(error as Error).message} (the last good build keeps serving)`;
      failed = [...failed.filter((f) => f.path !== dir), { path: dir, error: message }];
      deps.logger.warn(`Plugin "${name}" at ${dir} failed to reload: ${message}`);
      return { kind: "failed", plugin: name, error: message };
    }
    if (next.manifest.name !== name) {
      return { kind: "full", reason: `plugin "${name}" is now named "${next.manifest.name}"` };
    }
    const wasFailing = failed.some((f) => f.path === dir);
    failed = failed.filter((f) => f.path !== dir);
    if (!wasFailing && sameBuild(previous, next)) return { kind: "unchanged", plugin: name };
    const plugins = chosen.with(index, next);
    await install(plugins, deps.config());
    chosen = plugins;
    for (const listener of listeners) listener(registry);
    return { kind: "reloaded", plugin: name, durationMs: clock() - started };
  }

  /** Runs `work` once nothing else runs; reloads requested meanwhile wait for it. */
  async function exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (running) await running.catch(() => {});
    const run = work();
    const tracked = run.finally(() => (running = undefined));
    running = tracked;
    tracked.catch(() => {}); // the caller gets the failure from `run`
    return await run;
  }

  /**
   * Reload requests share runs: a request while nothing runs starts a run; requests that arrive
   * while one runs (they may have changed config after it was read) share the single next run.
   * A run counts as one reload however many requests share it; the startup load does not count.
   */
  interface Flag {
    counted: boolean;
  }
  /** The reload or single-plugin reload that runs now; only awaited, as a lock. */
  let running: Promise<unknown> | undefined;
  let queued: { flag: Flag; promise: Promise<ReloadSummary> } | undefined;

  function start(flag: Flag): Promise<ReloadSummary> {
    const run = execute().then((summary) => {
      if (flag.counted) {
        Object.assign(stats, {
          count: stats.count + 1,
          lastTimestamp: clock(),
          lastDurationMs: summary.durationMs,
        });
      }
      return summary;
    });
    const tracked = run.finally(() => (running = undefined));
    running = tracked;
    return tracked;
  }

  function request(counted: boolean): Promise<ReloadSummary> {
    if (!running) return start({ counted });
    if (queued) {
      queued.flag.counted ||= counted;
      return queued.promise;
    }
    const flag = { counted };
    const promise = (async () => {
      while (running) await running.catch(() => {}); // a single-plugin reload may run next
      queued = undefined;
      return start(flag);
    })();
    queued = { flag, promise };
    return promise;
  }

  return {
    load: () => request(false),
    reload: () => request(true),
    reloadPlugin: (dir) => exclusive(() => executeOne(dir)),
    registry: () => registry,
    failedPlugins: () => failed,
    discoveryErrors: () => errors,
    contested: () => contested,
    stats: () => ({ ...stats }),
    onChange: (listener) => listeners.push(listener),
    discoveredWith: () => discoveredWith,
  };
}
