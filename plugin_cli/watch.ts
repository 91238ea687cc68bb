/**
 * `hub-plugin build --watch`: rebuilds when a source file changes and asks the hub to reload.
 * A failed build prints its error and keeps watching; the last good dist/ stays in place.
 */
import { relative, sep } from "node:path";

const IGNORED = ["dist", "node_modules", ".git"];
export const DEBOUNCE_MS = 150;

/** Whether a changed path should trigger a rebuild (not dist/, node_modules/, .git/, README). */
export function triggersRebuild(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  const first = rel.split(sep)[0];
  if (IGNORED.includes(first)) return false;
  if (rel === "README.md" || rel.endsWith("~") || /(^|\/)\.[^/]*\.(swp|tmp)$/.test(rel)) {
    return false;
  }
  return true;
}

/**
 * Calls `rebuild` whenever relevant files change, one rebuild at a time, until `signal` aborts.
 * Changes during a rebuild cause one more rebuild afterwards.
 */
export async function watchAndRebuild(
  dir: string,
  rebuild: () => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const watcher = Deno.watchFs(dir, { recursive: true });
  signal?.addEventListener("abort", () => watcher.close(), { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    do {
      again = false;
      running = rebuild();
      await running;
      running = undefined;
    } while (again);
  };
  for await (const event of watcher) {
    if (!event.paths.some((p) => triggersRebuild(dir, p))) continue;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  }
  if (timer !== undefined) clearTimeout(timer);
  await running;
}
