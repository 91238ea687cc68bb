/**
 * The background update check on a fake clock: nothing before `start`, the first check after the
 * short delay, then one per interval; 0 turns it off and a config change is seen; no registry
 * request without installed packages; failures logged once until a success; `checkNow` shares a
 * running check; `stop` clears the timer.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { UpdateCheck } from "../../protocol/packages.ts";
import type { Logger } from "../log/logger_interface.ts";
import {
  createUpdateChecker,
  FIRST_CHECK_DELAY_MS,
  RECHECK_CONFIG_MS,
  type Timers,
  type UpdateSource,
} from "./update_check.ts";

const MINUTE = 60_000;

/** A clock and timers that move only when the test says so. */
function fakeTime() {
  let now = 1_000_000;
  let nextId = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    setTimeout(run, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  /** Moves time forward, running each due timer (and the promises it starts) in order. */
  async function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].run();
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the check it started settle
    }
    now = end;
  }
  return { timers, clock: () => now, advance, pending: () => pending.size };
}

const UPDATE = {
  name: "hub-plugin-a",
  plugin: "a",
  installedVersion: "1.0.0",
  latestVersion: "1.1.0",
};

function setup(opts: { installed?: unknown[]; interval?: number } = {}) {
  const time = fakeTime();
  let interval = opts.interval ?? 30;
  const calls: number[] = [];
  const logs: string[] = [];
  const changes: UpdateCheck[] = [];
  let fail: Error | undefined;
  let updates = [UPDATE];
  const packages: UpdateSource = {
    installed: () => Promise.resolve(opts.installed ?? [{ name: "hub-plugin-a" }]),
    checkUpdates() {
      calls.push(time.clock());
      return fail ? Promise.reject(fail) : Promise.resolve({ checkedAt: time.clock(), updates });
    },
  };
  const logger: Logger = {
    debug: () => {},
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  const checker = createUpdateChecker({
    packages,
    intervalMinutes: () => interval,
    onChange: (check) => changes.push(check),
    logger,
    clock: time.clock,
    timers: time.timers,
  });
  return {
    ...time,
    checker,
    calls,
    logs,
    changes,
    setInterval: (m: number) => (interval = m),
    setFail: (e: Error | undefined) => (fail = e),
    setUpdates: (u: typeof updates) => (updates = u),
  };
}

Deno.test("nothing runs before start; the first check comes after the short delay", async () => {
  const t = setup();
  await t.advance(10 * MINUTE);
  assertEquals(t.calls.length, 0, "not started: no check");
  t.checker.start();
  await t.advance(FIRST_CHECK_DELAY_MS - 1);
  assertEquals(t.calls.length, 0, "never on startup's critical path");
  await t.advance(1);
  assertEquals(t.calls.length, 1);
  assertEquals(t.checker.current()?.updates, [UPDATE]);
  assertEquals(t.changes.length, 1, "the first result is announced");
});

Deno.test("then one check per interval, and an unchanged result is not announced again", async () => {
  const t = setup({ interval: 30 });
  t.checker.start();
  await t.advance(FIRST_CHECK_DELAY_MS);
  await t.advance(30 * MINUTE);
  await t.advance(30 * MINUTE);
  assertEquals(t.calls.length, 3);
  assertEquals(t.calls[2] - t.calls[1], 30 * MINUTE);
  assertEquals(t.changes.length, 1, "same updates: no new announcement");
  t.setUpdates([]);
  await t.advance(30 * MINUTE);
  assertEquals(t.changes.length, 2);
  assertEquals(t.changes[1].updates, []);
});

Deno.test("a short interval checks first after the interval itself", async () => {
  const t = setup({ interval: 0.01 }); // 600 ms
  t.checker.start();
  await t.advance(600);
  await t.advance(600);
  assertEquals(t.calls.length, 2);
});

Deno.test("0 turns it off; turning it on again is seen within a minute, or at once on reconsider", async () => {
  const t = setup({ interval: 0 });
  t.checker.start();
  await t.advance(120 * MINUTE);
  assertEquals(t.calls.length, 0);
  assertEquals(t.pending(), 1, "only the timer that reads the config again");
  t.setInterval(1);
  await t.advance(RECHECK_CONFIG_MS);
  await t.advance(MINUTE);
  assert(t.calls.length >= 1, "on again after the config changed");
  t.setInterval(0);
  t.checker.reconsider();
  const before = t.calls.length;
  await t.advance(60 * MINUTE);
  assertEquals(t.calls.length, before, "off at once after reconsider");
});

Deno.test("a shorter interval set in the config applies without waiting for the old one", async () => {
  const t = setup({ interval: 600 });
  t.checker.start();
  await t.advance(FIRST_CHECK_DELAY_MS);
  assertEquals(t.calls.length, 1);
  t.setInterval(2);
  await t.advance(2 * MINUTE);
  assertEquals(t.calls.length, 2);
});

Deno.test("without installed plugin packages the registry is never asked", async () => {
  const t = setup({ installed: [] });
  t.checker.start();
  await t.advance(FIRST_CHECK_DELAY_MS + 90 * MINUTE);
  assertEquals(t.calls.length, 0);
  assertEquals(t.checker.current()?.updates, []);
  assertEquals((await t.checker.checkNow()).updates, []);
  assertEquals(t.calls.length, 0);
});

Deno.test("a failing check is logged once until a check succeeds, and keeps the last updates", async () => {
  const t = setup({ interval: 1 });
  t.checker.start();
  await t.advance(MINUTE);
  t.setFail(new Error("registry down"));
  await t.advance(5 * MINUTE);
  assertEquals(t.calls.length, 6);
  const warnings = t.logs.filter((l) => l.startsWith("warn"));
  assertEquals(warnings.length, 1, t.logs.join("\n"));
  assert(warnings[0].includes("registry down"));
  assertEquals(t.checker.current()?.error, "registry down");
  assertEquals(t.checker.current()?.updates, [UPDATE], "what the last good check found stays");
  t.setFail(undefined);
  await t.advance(MINUTE);
  assertEquals(t.checker.current()?.error, undefined);
  t.setFail(new Error("down again"));
  await t.advance(MINUTE);
  assertEquals(
    t.logs.filter((l) => l.startsWith("warn")).length,
    2,
    "logged again after a success",
  );
});

Deno.test("checkNow runs at once, shares a running check, and restarts the interval", async () => {
  const t = setup({ interval: 30 });
  t.checker.start();
  const [a, b] = await Promise.all([t.checker.checkNow(), t.checker.checkNow()]);
  assertEquals(a, b);
  assertEquals(t.calls.length, 1, "one check for both callers");
  await t.advance(30 * MINUTE - 1);
  assertEquals(t.calls.length, 1, "the next one an interval later");
  await t.advance(1);
  assertEquals(t.calls.length, 2);
});

Deno.test("forget drops a package's update; stop clears the timer for good", async () => {
  const t = setup({ interval: 1 });
  t.checker.start();
  await t.checker.checkNow();
  t.checker.forget("hub-plugin-a");
  assertEquals(t.checker.current()?.updates, []);
  t.checker.stop();
  assertEquals(t.pending(), 0);
  await t.advance(60 * MINUTE);
  assertEquals(t.calls.length, 1);
});
