/**
 * Gives memory back after a burst. V8 collects old garbage only when it allocates more or, when the
 * process goes quiet, 20–30 s later; after a flood of large messages the hub would keep hundreds of
 * megabytes of garbage that long. A cheap check every few seconds runs one full collection when the
 * heap has grown well past what it held after the last one. A steady heap costs nothing.
 */
import v8 from "node:v8";
import vm from "node:vm";
import type { Logger } from "./log/logger.ts";
import { errorText } from "../protocol/clip.ts";

/** How often the heap is looked at. */
export const SETTLE_INTERVAL_MS = 5_000;
/** Growth of the used heap since the last collection that triggers one. */
export const SETTLE_GROWTH_BYTES = 32 * 1024 * 1024;

export interface MemorySettle {
  /** Runs the check once (the timer calls it); true when it collected. */
  check(): boolean;
  stop(): void;
}

export interface MemorySettleOptions {
  logger: Logger;
  /** The collector; default V8's own, exposed at run time. Undefined turns settling off. */
  collect?: () => void;
  heapUsed?: () => number;
  intervalMs?: number;
}

export function startMemorySettle(options: MemorySettleOptions): MemorySettle {
  const collect = "collect" in options ? options.collect : exposeGc(options.logger);
  const heapUsed = options.heapUsed ?? (() => Deno.memoryUsage().heapUsed);
  let settled = heapUsed();
  const check = () => {
    if (!collect) return false;
    const used = heapUsed();
    if (used < settled + SETTLE_GROWTH_BYTES) {
      settled = Math.min(settled, used);
      return false;
    }
    collect();
    settled = heapUsed();
    return true;
  };
  const timer = collect ? setInterval(check, options.intervalMs ?? SETTLE_INTERVAL_MS) : undefined;
  if (timer !== undefined) Deno.unrefTimer(timer);
  return { check, stop: () => clearInterval(timer) };
}

/** V8's `gc`, exposed through its flag at run time; undefined (logged) where that fails. */
function exposeGc(logger: Logger): (() => void) | undefined {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    if (typeof gc === "function") return () => gc();
  } catch (error) {
    logger.debug(`Memory settling is off: ${errorText(error)}`);
  }
  return undefined;
}
