/**
 * `hub-plugin build` against a hub in dev mode. Such a hub notices the new build by itself and
 * reloads that plugin alone (the open tabs get the new adapter without a page reload); a
 * `POST /reload` from the build would arrive before the hub's debounce and turn that into a full
 * reload. So when the hub runs in dev mode and already serves the plugin from a local folder, the
 * build does not ask for a reload: it waits for the hub's file watcher to report on this plugin
 * (`fileWatcher.lastEvent` after the build), and says what the hub did.
 */
import { resolve } from "node:path";
import type { FileWatcherEvent, HealthPayload } from "../protocol/health.ts";

/** How long the build waits for the hub's watcher before it asks for a reload itself. */
export const WATCH_WAIT_MS = 3_000;
const POLL_MS = 25;

/** Whether the hub runs in dev mode and serves plugin `name` from a local folder. */
export function watchesPlugin(health: HealthPayload, name: string): boolean {
  return health.mode === "dev" && health.fileWatcher !== undefined &&
    health.pluginDetails.some((p) => p.name === name && p.source === "local");
}

/** What the hub's watcher did with a build: its event, and the health that showed it. */
export interface WatchedBuild {
  event: FileWatcherEvent;
  health: HealthPayload;
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Milliseconds since the epoch, as the hub's `at` (default Date.now). */
  clock?: () => number;
}

/**
 * Reads the hub's health until its watcher reports on plugin `name` at or after `since` (the end
 * of the build); undefined after `timeoutMs` or when the hub went away.
 */
export async function waitForWatcher(
  health: () => Promise<HealthPayload | undefined>,
  name: string,
  since: number,
  options: WaitOptions = {},
): Promise<WatchedBuild | undefined> {
  const clock = options.clock ?? Date.now;
  const end = clock() + (options.timeoutMs ?? WATCH_WAIT_MS);
  while (true) {
    const current = await health();
    if (current === undefined) return undefined;
    const event = current.fileWatcher?.lastEvent;
    if (event?.kind === "plugin" && event.plugin === name && event.at >= since) {
      return { event, health: current };
    }
    if (clock() >= end) return undefined;
    await new Promise((r) => setTimeout(r, options.intervalMs ?? POLL_MS));
  }
}

/** "1 tool", "3 tools": how many tools a plugin's detail in `/health` has. */
export function toolCountText(detail: { toolCount: number }): string {
  return `${detail.toolCount} tool${detail.toolCount === 1 ? "" : "s"}`;
}

/** The `/health` entry of a plugin in `dir` that failed to load, if any. */
export function failedAt(health: HealthPayload | undefined, dir: string) {
  return health?.failedPlugins.find((f) => resolve(f.path) === resolve(dir));
}

/** One line about what the dev-mode hub did with the build of plugin `name` in `dir`. */
export function describeWatched(watched: WatchedBuild, name: string, dir: string): string {
  const { event, health } = watched;
  const detail = health.pluginDetails.find((p) => p.name === name);
  const tools = detail ? toolCountText(detail) : "";
  switch (event.outcome) {
    case "reloaded":
      return `The hub (dev mode) reloaded "${name}" alone: it serves ${tools}, and open tabs ` +
        "run the new adapter without a page reload.";
    case "unchanged":
      return `The hub (dev mode) already serves this build of "${name}": no change.`;
    case "full-reload":
      return `The hub (dev mode) reloaded every plugin` +
        (detail ? ` and serves ${tools} of "${name}".` : `, but "${name}" is not among them.`);
    case "failed": {
      const failed = failedAt(health, dir);
      return `The hub (dev mode) cannot load the new build: ${failed?.error ?? "see hub logs"}`;
    }
    default:
      return `The hub (dev mode) could not react to the build (${event.outcome}); "hub logs" ` +
        "says why.";
  }
}
