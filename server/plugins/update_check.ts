/**
 * The background check for newer versions of the installed plugin packages
 * (`updateCheckIntervalMinutes`; 0 turns it off). It never runs on startup's critical path: `start`
 * is called once the startup discovery is done, and the first check comes a short delay later. It
 * asks the registry only when plugin packages are installed. The interval is read from the config
 * on every wake-up (at least once a minute) and again when the hub announces a change, so an edit
 * takes effect without a restart. What it finds is kept in memory for `sync.full`; `onChange` hears
 * every change of the list. A failure is logged once, not on every tick, until a check succeeds.
 * `checkNow` (`plugin.checkUpdates`) runs a check at once, or joins the one already running.
 */
import type { UpdateCheck } from "../../protocol/packages.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { UpdateChecker } from "./update_checker_interface.ts";

/** What the checker needs of the plugin packages module. */
export interface UpdateSource {
  checkUpdates(): Promise<UpdateCheck>;
  /** The installed plugin packages; the registry is not asked when there are none. */
  installed(): Promise<readonly unknown[]>;
}

/** The timer functions (tests pass a fake clock). */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface UpdateCheckerDeps {
  packages: UpdateSource;
  /** `updateCheckIntervalMinutes` of the current config. */
  intervalMinutes(): number;
  /** Called when the list of available updates (or the last error) changed. */
  onChange(check: UpdateCheck): void;
  logger: Logger;
  clock?: () => number;
  timers?: Timers;
  /** Delay of the first check after `start` when the interval is longer (default 60 s). */
  firstCheckDelayMs?: number;
}

/** The longest the checker sleeps before it reads the interval again. */
export const RECHECK_CONFIG_MS = 60_000;
export const FIRST_CHECK_DELAY_MS = 60_000;
const MINUTE_MS = 60_000;
const MAX_ERROR_CHARS = 500;

/** Deno's timers, unref'd: a pending check never keeps the process alive. */
const realTimers: Timers = {
  setTimeout(run, ms) {
    const id = setTimeout(run, ms) as unknown as number;
    Deno.unrefTimer(id);
    return id;
  },
  clearTimeout: (id) => clearTimeout(id as number),
};

/** Two checks report the same thing to the extension (the time alone is no change). */
function sameFindings(a: UpdateCheck | undefined, b: UpdateCheck): boolean {
  if (!a) return false;
  return JSON.stringify([a.updates, a.error]) === JSON.stringify([b.updates, b.error]);
}

export function createUpdateChecker(deps: UpdateCheckerDeps): UpdateChecker {
  const clock = deps.clock ?? Date.now;
  const timers = deps.timers ?? realTimers;
  const firstDelay = deps.firstCheckDelayMs ?? FIRST_CHECK_DELAY_MS;
  let startedAt: number | undefined;
  let lastRunAt: number | undefined;
  let timer: unknown;
  let running: Promise<UpdateCheck> | undefined;
  let latest: UpdateCheck | undefined;
  let failing = false;
  let stopped = false;

  function record(check: UpdateCheck) {
    const changed = !sameFindings(latest, check);
    latest = check;
    if (changed) deps.onChange(check);
  }

  async function check(): Promise<UpdateCheck> {
    let result: UpdateCheck;
    try {
      const installed = await deps.packages.installed();
      result = installed.length === 0
        ? { checkedAt: clock(), updates: [] }
        : await deps.packages.checkUpdates();
      if (failing) deps.logger.info("The plugin update check works again.");
      failing = false;
    } catch (error) {
      const message = (error as Error).message.slice(0, MAX_ERROR_CHARS);
      if (!failing) {
        deps.logger.warn(
          `The plugin update check failed: ${message} (it is retried every interval and logged ` +
            "again only after a check succeeds)",
        );
      }
      failing = true;
      // Keep what the last good check found: a registry that is down does not undo updates.
      result = { checkedAt: clock(), updates: latest?.updates ?? [], error: message };
    }
    record(result);
    return result;
  }

  function run(): Promise<UpdateCheck> {
    if (!running) {
      running = check().finally(() => {
        running = undefined;
        lastRunAt = clock();
        schedule();
      });
    }
    return running;
  }

  /** Sets the one timer: to the next check when it is near, else to read the interval again. */
  function schedule() {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    if (stopped || startedAt === undefined || running) return;
    const minutes = deps.intervalMinutes();
    if (!(minutes > 0)) {
      timer = timers.setTimeout(schedule, RECHECK_CONFIG_MS);
      return;
    }
    const every = minutes * MINUTE_MS;
    const due = lastRunAt === undefined
      ? startedAt + Math.min(every, firstDelay)
      : lastRunAt + every;
    const wait = Math.max(0, due - clock());
    timer = wait > RECHECK_CONFIG_MS
      ? timers.setTimeout(schedule, RECHECK_CONFIG_MS)
      : timers.setTimeout(() => void run(), wait);
  }

  return {
    start() {
      if (startedAt !== undefined || stopped) return;
      startedAt = clock();
      schedule();
    },
    reconsider: schedule,
    checkNow: run,
    current: () => latest,
    forget(packageName) {
      if (!latest?.updates.some((u) => u.name === packageName)) return;
      latest = { ...latest, updates: latest.updates.filter((u) => u.name !== packageName) };
    },
    stop() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}
