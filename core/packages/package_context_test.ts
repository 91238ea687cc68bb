import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { createConfigStore } from "../config/config_store.ts";
import { FakeNpm } from "./_fake_npm.ts";
import { createPackageContext } from "./package_context.ts";

/** A lock file with no owner record (its owner cannot be looked up), last written `ageMs` ago. */
async function oldLock(dir: string, ageMs: number): Promise<string> {
  const lock = join(dir, "config", "package-locks", "hub-plugin-a.lock");
  await Deno.mkdir(join(dir, "config", "package-locks"), { recursive: true });
  await Deno.writeTextFile(lock, "");
  const then = new Date(Date.now() - ageMs);
  await Deno.utime(lock, then, then);
  return lock;
}

Deno.test("package lock: an unknown owner's lock is not broken during a long install", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-package-lock-test-" });
  try {
    const ctx = createPackageContext({
      globalRoot: () => Promise.resolve(join(dir, "root")),
      store: createConfigStore(join(dir, "config", "config.json")),
      npm: new FakeNpm().run,
      timeoutMs: 1_000,
    });
    // 20 s is past file_lock's default staleness, yet within one install's time limits.
    const lock = await oldLock(dir, 20_000);
    let ran = false;
    const task = ctx.serialize("hub-plugin-a", () => Promise.resolve(ran = true));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assertEquals(ran, false, "waited for the owner");
    await Deno.remove(lock);
    await task;
    assertEquals(ran, true);
    // A lock older than every limit of an operation is abandoned.
    await oldLock(dir, 3_600_000);
    assertEquals(await ctx.serialize("hub-plugin-a", () => Promise.resolve("took it")), "took it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
