import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { withFileLock } from "./file_lock.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";

Deno.test("a lock left by a crashed process is broken after staleMs", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await Deno.writeTextFile(lock, "12345:dead");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(lock, old, old);
    assertEquals(await withFileLock(lock, () => Promise.resolve("ran"), { staleMs: 1000 }), "ran");
    assertEquals([...Deno.readDirSync(dir)].length, 0, "no lock or stale leftovers");
  });
});

Deno.test("a fresh lock held by someone else makes waiters time out with the file named", async () => {
  await withTempDir(async (dir) => {
    const lock = `${dir}/config.json.lock`;
    await Deno.writeTextFile(lock, "other:owner");
    await assertRejects(
      withFileLock(lock, () => Promise.resolve(), { timeoutMs: 100, staleMs: 60_000 }),
      new RegExp(`waiting for the lock ${lock}.*delete that file`),
    );
    assertEquals(await Deno.readTextFile(lock), "other:owner", "a foreign lock is never removed");
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
