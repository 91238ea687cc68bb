/**
 * What dev mode watches, and which watched thing a file event belongs to. Each local plugin folder
 * is watched through its `dist/`, or through the folder itself while `dist/` does not exist (to
 * see it appear); config.json through its folder (it is replaced by rename). An event on a
 * plugin's `dist/` itself (removed, or created in the folder) means the watch must be renewed:
 * a removed folder takes its native watch with it.
 */
import { basename, dirname, join } from "node:path";
import { isDirectory } from "../plugins/discover.ts";

/** The key of config.json among the watched things (plugin keys are absolute folder paths). */
export const CONFIG = "config";

/** Watched plugin folder → the path watched for it (its dist/, or itself until dist/ exists). */
export type Watched = Map<string, string>;

export async function watchTargets(dirs: string[]): Promise<Watched> {
  const next: Watched = new Map();
  for (const dir of dirs) {
    const dist = join(dir, "dist");
    next.set(dir, (await isDirectory(dist)) ? dist : dir);
  }
  return next;
}

export interface RoutedEvent {
  /** The watched things that changed: CONFIG or plugin folders. */
  keys: Set<string>;
  /** A plugin's dist/ itself came or went: watch again. */
  renew: boolean;
}

/** The watched things an event touches; other files in the watched folders are ignored. */
export function routeEvent(event: Deno.FsEvent, configPath: string, watched: Watched): RoutedEvent {
  const routed: RoutedEvent = { keys: new Set(), renew: false };
  for (const path of event.paths) {
    if (dirname(path) === dirname(configPath)) {
      if (basename(path) === basename(configPath)) routed.keys.add(CONFIG);
      continue;
    }
    for (const [dir, target] of watched) {
      const dist = join(dir, "dist");
      if (path === dist) {
        routed.keys.add(dir);
        routed.renew = true;
      } else if (target === dist && dirname(path) === dist) routed.keys.add(dir);
    }
  }
  return routed;
}
