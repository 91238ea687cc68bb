/**
 * Gives memory back after a burst. V8 collects old garbage only when it allocates more or, when the
 * process goes quiet, 20–30 s later (often never for a few megabytes); after a flood of large
 * messages the hub would keep hundreds of megabytes of garbage that long, and start-up alone leaves
 * ~10 MB (module evaluation, config and plugin loading) that keeps ~18 MB of RSS. A cheap check
 * every few seconds runs one full collection when the used heap has grown well past what the last
 * one left (under load), or a little past it once the heap has gone quiet (the tail of a burst).
 * The first check, a few seconds after start, always collects. A steady heap costs nothing.
 * V8's collector is reached through `node:v8` and `node:vm`, which start Deno's Node compatibility
 * layer (about 20 ms), so it is loaded at the first tick of the timer, not at start.
 */
import type { Logger } from "./log/logger_interface.ts";
import { errorText } from "../protocol/clip.ts";
import { loadOnce } from "../core/cache/load_once.ts";

/** How often the heap is looked at. */
export const SETTLE_INTERVAL_MS = 2_500;
/** Growth of the used heap since the last collection that triggers one. */
export const SETTLE_GROWTH_BYTES = 32 * 1024 * 1024;
/** Growth of the used heap, or of its reserved but unused part, that triggers one when quiet. */
export const QUIET_GROWTH_BYTES = 4 * 1024 * 1024;
/** The heap is quiet when the used heap moved less than this since the previous check. */
export const QUIET_BYTES = 1024 * 1024;

export interface MemorySettle {
  /** Runs the check once (the timer calls it); true when it collected. */
  check(): boolean;
  /** Loads V8's collector now instead of at the first tick; resolves once it is known. */
  ready(): Promise<void>;
  stop(): void;
}

export interface MemorySettleOptions {
  logger: Logger;
  /** The collector; default V8's own, exposed at run time. Undefined turns settling off. */
  collect?: () => void;
  /** The used and the reserved (total) heap; default `Deno.memoryUsage()`'s. */
  heap?: () => { used: number; total: number };
  intervalMs?: number;
}

export function startMemorySettle(options: MemorySettleOptions): MemorySettle {
  const injected = "collect" in options;
  let collect = injected ? options.collect : undefined;
  const heap = options.heap ?? (() => {
    const usage = Deno.memoryUsage();
    return { used: usage.heapUsed, total: usage.heapTotal };
  });
  /** What the last collection left; none yet, so the first check collects start-up's garbage. */
  let settled = { used: 0, spare: 0 };
  /** The used heap at the previous check; undefined before the first (which counts as quiet). */
  let previous: number | undefined;
  const check = () => {
    if (!collect) return false;
    const { used, total } = heap();
    const quiet = previous === undefined || Math.abs(used - previous) < QUIET_BYTES;
    previous = used;
    const grown = used - settled.used;
    // V8 often frees the garbage of a burst itself but keeps the space it grew (young generation,
    // old pages) reserved: that space, not the used heap, is what holds the RSS then.
    const spareGrown = total - used - settled.spare;
    const worth = Math.max(grown, spareGrown) >= QUIET_GROWTH_BYTES;
    if (grown < SETTLE_GROWTH_BYTES && !(quiet && worth)) {
      settled.used = Math.min(settled.used, used);
      return false;
    }
    collect();
    const after = heap();
    settled = { used: after.used, spare: after.total - after.used };
    previous = after.used;
    return true;
  };
  const ready = injected
    ? () => Promise.resolve()
    : loadOnce(() =>
      exposeGc(options.logger).then((gc) => {
        collect = gc;
        if (!gc) clearInterval(timer);
      })
    );
  const timer = injected && !collect
    ? undefined
    : setInterval(() => void ready().then(check), options.intervalMs ?? SETTLE_INTERVAL_MS);
  if (timer !== undefined) Deno.unrefTimer(timer);
  return { check, ready, stop: () => clearInterval(timer) };
}

/** V8's `gc`, exposed through its flag at run time; undefined (logged) where that fails. */
async function exposeGc(logger: Logger): Promise<(() => void) | undefined> {
  try {
    const [{ default: v8 }, { default: vm }] = await Promise.all([
      import("node:v8"),
      import("node:vm"),
    ]);
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    if (typeof gc === "function") return () => gc();
  } catch (error) {
    logger.debug(`Memory settling is off: ${errorText(error)}`);
  }
  return undefined;
}
