import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { withFileLock } from "./file_lock.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { currentStartTime, processStartTime } from "../process/process_identity.ts";

/** The pid of a process that has exited (started and awaited here). */
async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  await child.status;
  return child.pid;
}

/** Makes `path` look `ms` old, past the moment a waiter looks its owner up. */
async function age(path: string, ms: number) {
  const then = new Date(Date.now() - ms);
  await Deno.utime(path, then, then);
}

Deno.test("the lock records its owner: pid and process start time", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    const seen = await withFileLock(lock, () => Deno.readTextFile(lock));
    const owner = JSON.parse(seen);
    assertEquals(owner.pid, Deno.pid);
    assertEquals(owner.startTime, await currentStartTime());
    assert(owner.startTime, "ps gives the start time on this system");
    assertEquals([...Deno.readDirSync(dir)], [], "released, no temp files");
  });
});

Deno.test("a fresh lock of a dead owner is broken at once, not after staleMs", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await Deno.writeTextFile(lock, JSON.stringify({ pid: await deadPid(), token: "x" }));
    await age(lock, 1_000); // one second old: the old rule kept such a lock for 10 s
    const ran = await withFileLock(lock, () => Promise.resolve("ran"), {
      staleMs: 600_000,
      timeoutMs: 30_000,
    });
    assertEquals(ran, "ran");
    assertEquals([...Deno.readDirSync(dir)], [], "no lock, guard or temp leftovers");
  });
});

Deno.test("a lock whose pid now belongs to another process (start time differs) is broken", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    const owner = { pid: Deno.pid, startTime: "Thu Jan  1 00:00:00 1970", token: "reused" };
    await Deno.writeTextFile(lock, JSON.stringify(owner));
    await age(lock, 1_000);
    const ran = await withFileLock(lock, () => Promise.resolve("ran"), { staleMs: 600_000 });
    assertEquals(ran, "ran");
  });
});

Deno.test("a lock held by a live owner is waited for, then times out naming the owner", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    const owner = { pid: Deno.pid, startTime: await processStartTime(Deno.pid), token: "live" };
    await Deno.writeTextFile(lock, JSON.stringify(owner));
    await age(lock, 60_000);
    const error = await withFileLock(lock, () => Promise.resolve(), { timeoutMs: 300 }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert(error, "a live owner's lock is never broken");
    assertMatch(error.message, new RegExp(`lock ${lock}, which process ${Deno.pid} still holds`));
    assertMatch(error.message, /kill \d+/);
    assertEquals(JSON.parse(await Deno.readTextFile(lock)).token, "live");
  });
});

Deno.test("a lock without an owner record (older hub) is broken after staleMs only", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await Deno.writeTextFile(lock, "12345:old-format");
    await assertRejects(
      withFileLock(lock, () => Promise.resolve(), { timeoutMs: 300, staleMs: 60_000 }),
      /delete that file/,
    );
    await age(lock, 120_000);
    assertEquals(await withFileLock(lock, () => Promise.resolve(1), { staleMs: 60_000 }), 1);
    assertEquals([...Deno.readDirSync(dir)], []);
  });
});

Deno.test("release does not delete a lock that is no longer ours", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await withFileLock(lock, async () => {
      await Deno.writeTextFile(lock, "someone:else"); // as if it was broken and re-taken
    });
    assertEquals(await Deno.readTextFile(lock), "someone:else");
  });
});

Deno.test("many waiters on one dead lock: exactly one holder at a time", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await Deno.writeTextFile(lock, JSON.stringify({ pid: await deadPid(), token: "dead" }));
    await age(lock, 5_000);
    let inside = 0;
    let maxInside = 0;
    await Promise.all(Array.from({ length: 30 }, () =>
      withFileLock(lock, async () => {
        maxInside = Math.max(maxInside, ++inside);
        await new Promise((r) => setTimeout(r, 1));
        inside--;
      }, { staleMs: 600_000 })));
    assertEquals(maxInside, 1);
    assertEquals([...Deno.readDirSync(dir)], []);
  });
});
