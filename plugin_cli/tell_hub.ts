/**
 * What `hub-plugin build` tells hub: it registers a new plugin folder in `localPlugins` and asks a
 * running hub to reload, then reports whether the hub loaded the plugin or why not. A hub in dev
 * mode that already serves the plugin from its folder is not asked: its file watcher reloads the
 * plugin alone, and the build reports what it did (dev_hub.ts).
 */
import { dirname, resolve } from "node:path";
import { cliClient, cliConfigStore, cliPaths, warn } from "../core/client/client_context.ts";
import { resolvePluginPath } from "../core/config/paths.ts";
import { allowedRoots, outsideRootsError } from "../core/plugin_source/allowed_roots.ts";
import type { HealthPayload } from "../protocol/health.ts";
import { type HubClient, UNPROVEN_HUB } from "../core/client/hub_client.ts";
import { isUserError } from "../core/cli/user_error.ts";
import {
  describeWatched,
  failedAt,
  toolCountText,
  waitForWatcher,
  type WatchedBuild,
  watchesPlugin,
} from "./dev_hub.ts";

/** Adds `dir` to `localPlugins` unless config already covers it. Returns true when it added it. */
export async function registerLocalPlugin(dir: string): Promise<boolean> {
  const paths = cliPaths();
  const store = cliConfigStore(paths);
  const target = resolve(dir);
  let added = false;
  const config = await store.update((config) => {
    const listed = config.localPlugins.some((p) => resolvePluginPath(p, paths.dir) === target);
    const underParent = config.localPluginDirs.some((p) =>
      resolvePluginPath(p, paths.dir) === dirname(target)
    );
    if (listed || underParent) return;
    config.localPlugins.push(target);
    added = true;
  });
  const problem = outsideRootsError(target, allowedRoots({ ...config, configDir: paths.dir }));
  if (problem) warn(problem);
  return added;
}

export type ReloadOutcome =
  | { kind: "no-hub"; port: number }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "failed"; message: string }
  /** Something on the port did not prove it knows the secret; nothing was sent to it. */
  | { kind: "unproven"; message: string }
  | { kind: "reloaded"; health: HealthPayload | undefined }
  /** A dev-mode hub's file watcher handled the build; no reload was asked for. */
  | ({ kind: "watched" } & WatchedBuild);

/**
 * Tells a running hub about the build of plugin `name`, finished at `builtAt` (ms since
 * the epoch): a dev-mode hub that serves it is left to its file watcher (waited for, up to 3 s),
 * any other hub is asked to reload. Never throws: the build itself already succeeded.
 */
export async function tellHub(name: string, builtAt: number): Promise<ReloadOutcome> {
  try {
    const client = await cliClient(undefined);
    const health = await client.health();
    if (!health) return { kind: "no-hub", port: client.port };
    if (watchesPlugin(health, name)) {
      const watched = await waitForWatcher(() => client.health(), name, builtAt);
      if (watched) return { kind: "watched", ...watched };
    }
    return reloadHub(client); // never throws
  } catch (error) {
    if (isUserError(error, UNPROVEN_HUB)) return { kind: "unproven", message: error.message };
    // Anything else (a refused secret, a hub gone meanwhile): a fresh reload request says it.
    return reloadHub();
  }
}

/**
 * Asks a running hub to reload, with `proven` when the caller already has a client that proved
 * the hub (no second read of auth.json, no second proof). Never throws: the build itself already
 * succeeded.
 */
export async function reloadHub(proven?: HubClient): Promise<ReloadOutcome> {
  try {
    const client = proven ?? await cliClient(undefined);
    const res = await client.request("POST", "/reload", { timeoutMs: 60_000 });
    if (!res) return { kind: "no-hub", port: client.port };
    if (res.status === 429) return { kind: "rate-limited", retryAfterSeconds: 60 };
    if (res.status !== 200) {
      const body = res.body as { error?: { message?: string } };
      return { kind: "failed", message: body?.error?.message ?? `HTTP ${res.status}` };
    }
    return { kind: "reloaded", health: await client.health().catch(() => undefined) };
  } catch (error) {
    if (isUserError(error, UNPROVEN_HUB)) return { kind: "unproven", message: error.message };
    return { kind: "failed", message: (error as Error).message };
  }
}

/** One line about what the hub made of plugin `name` after the reload. */
export function describeOutcome(outcome: ReloadOutcome, name: string, dir: string): string {
  switch (outcome.kind) {
    case "no-hub":
      return `No hub answered on 127.0.0.1:${outcome.port}; a hub loads the plugin when it ` +
        `starts (set HUB_PORT if yours runs on another port).`;
    case "rate-limited":
      return "The hub refused to reload now (more than 10 reloads a minute); it will load the " +
        "plugin on the next reload.";
    case "failed":
      return `The hub could not reload: ${outcome.message}`;
    case "unproven":
      return `Did not ask for a reload: ${outcome.message}`;
    case "watched":
      return describeWatched(outcome, name, dir);
    case "reloaded": {
      const detail = outcome.health?.pluginDetails.find((p) => p.name === name);
      if (detail) return `The hub reloaded and serves ${toolCountText(detail)} of "${name}".`;
      const failed = failedAt(outcome.health, dir);
      if (failed) return `The hub reloaded but could not load the plugin: ${failed.error}`;
      const refused = outcome.health?.discoveryErrors.find((e) => e.specifier.includes(dir));
      if (refused) return `The hub reloaded but refused the plugin: ${refused.error}`;
      return `The hub reloaded, but "${name}" is not among its plugins; check "hub status".`;
    }
  }
}
