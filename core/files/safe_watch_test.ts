import { join } from "node:path";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { makeFifo } from "../../tests/helpers/file_kinds.ts";
import { until } from "../../tests/helpers/until.ts";
import { createWatchWorker, type WatchWorker } from "./safe_watch.ts";

/** Whether the runtime's watcher thread waits to open a FIFO (Linux: its state in /proc). */
function watcherThreadBlocked(): boolean {
  for (const task of Deno.readDirSync("/proc/self/task")) {
    const at = `/proc/self/task/${task.name}`;
    try {
      const comm = Deno.readTextFileSync(`${at}/comm`);
      if (
        comm.startsWith("notify-rs") && Deno.readTextFileSync(`${at}/wchan`) === "wait_for_partner"
      ) {
        return true;
      }
    } catch {
      // the thread ended meanwhile
    }
  }
  return false;
}

/** A watch worker for one test, ended afterwards. */
async function withWorker(fn: (worker: WatchWorker, dir: string) => Promise<void>) {
  const worker = createWatchWorker();
  try {
    await withTempDir((dir) => fn(worker, dir));
  } finally {
    worker.terminate();
  }
}

Deno.test("watch worker: events arrive; a missing path throws like Deno.watchFs", async () => {
  await withWorker(async (worker, dir) => {
    const watcher = worker.watchFs([dir]);
    const seen: string[] = [];
    const pump = (async () => {
      for await (const event of watcher) seen.push(...event.paths);
    })();
    await Deno.writeTextFile(join(dir, "a.json"), "{}");
    await until(() => seen.includes(join(dir, "a.json")), "the event of a.json");
    watcher.close();
    await pump;
    assertThrows(() => worker.watchFs([join(dir, "missing")]), /No path was found/);
  });
});

Deno.test("watch worker: terminate ends its watches; later watches are refused", async () => {
  const worker = createWatchWorker();
  await withTempDir(async (dir) => {
    await worker.ready();
    const watcher = worker.watchFs([dir]);
    const pump = (async () => {
      for await (const _ of watcher) { /* none expected */ }
    })();
    worker.terminate();
    await pump; // the iteration ended
    assertThrows(() => worker.watchFs([dir]), /native watching has ended/);
  });
});

Deno.test({
  name: "watch worker: a FIFO in a watched folder blocks the runtime's watcher, not the caller",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withWorker(async (worker, dir) => {
      const watcher = worker.watchFs([dir]);
      const fifo = join(dir, "config.json");
      await makeFifo(fifo);
      await until(watcherThreadBlocked, "the watcher thread blocked on the FIFO", 10_000);
      // A plain Deno.watchFs here would wait for good; this one gives up within its bound.
      assertThrows(() => worker.watchFs([dir]), /did not start within 1000 ms/);
      assert(worker.blocked());
      // Known blocked: the next watch fails at once, without a wait or a request queued behind.
      assertThrows(() => worker.watchFs([dir]), /native watching is blocked/);
      watcher.close(); // only a message: returns at once
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await new Promise((r) => setTimeout(r, 100));
      clearInterval(timer);
      assert(ticks > 0, "the caller's thread runs on");
      // Clean up: a writer kept open lets the watcher's opens finish, then the FIFO goes.
      const writer = await Deno.open(fifo, { write: true });
      await until(() => !watcherThreadBlocked(), "the watcher thread free again", 10_000);
      await Deno.remove(fifo);
      writer.close();
      await worker.ready(); // the worker answered: no longer taken as blocked
      assertEquals(worker.blocked(), false);
      const again = worker.watchFs([dir]);
      again.close();
      assertEquals(watcherThreadBlocked(), false);
    });
  },
});
