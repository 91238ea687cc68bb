/**
 * The call counts telemetry may report: only calls made while telemetry was on. The call path
 * must cost no system call, and the on/off state does (the hub's config looks at config.json's
 * modification stamp), so the state is looked at no more than once a second while calls come in
 * (one timer looks a second after a look that left calls waiting), and again before the counts
 * are handed over. Calls since the previous look wait apart; the next look keeps them when
 * telemetry was on at both looks and drops them otherwise. So a call made while telemetry is off
 * is never reported, unless telemetry was turned off and on again between two looks (within one
 * second); the calls of the second before a switch to off are left out with them.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import type { CallCounts } from "./events.ts";
import { createUsageCounter } from "./usage_counter.ts";

export interface GatedCounter {
  /** Counts one finished call (a look at the state at most once per `everyMs`). */
  record(entry: Pick<AuditEntry, "plugin" | "success" | "error">): void;
  /** Looks at the state now, then hands over the kept counts; undefined when there are none. */
  take(): CallCounts | undefined;
  /** Stops the look timer (for good: later calls are not counted). */
  close(): void;
}

export function createGatedCounter(
  isOn: () => boolean,
  clock: () => number,
  everyMs = 1_000,
): GatedCounter {
  const waiting = createUsageCounter(); // since the last look
  const kept = createUsageCounter();
  let on = isOn();
  let lookedAt = clock();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  function look(): void {
    clearTimeout(timer);
    timer = undefined;
    const now = isOn();
    const calls = waiting.take();
    if (calls && on && now) kept.add(calls);
    on = now;
    lookedAt = clock();
  }

  return {
    record(entry) {
      if (closed) return;
      const now = clock();
      if (now - lookedAt >= everyMs || now < lookedAt) look();
      if (!on) return;
      waiting.record(entry);
      if (timer === undefined) {
        timer = setTimeout(look, Math.max(0, lookedAt + everyMs - now));
        Deno.unrefTimer(timer);
      }
    },
    take() {
      look();
      return kept.take();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
