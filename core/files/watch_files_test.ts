import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { liveFile } from "./live_file.ts";
import { watchFiles } from "./watch_files.ts";
import { createWatchWorker, type FsWatcher, type WatchFs } from "./safe_watch.ts";
import { until } from "../../tests/helpers/until.ts";

/** A temp folder, and a watch worker's native watching (ended afterwards). */
async function withDir(fn: (dir: string, native: { watchFs: WatchFs }) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hub_watch_files_" });
  const worker = createWatchWorker();
  try {
    await worker.ready();
    await fn(dir, { watchFs: worker.watchFs });
  } finally {
    worker.terminate();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A watcher fed by hand: `push` delivers an event, `end` finishes the stream. */
function fakeWatcher() {
  const pending: Deno.FsEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let closed = false;
  const watcher: FsWatcher = {
    close: () => {
      closed = true;
      ended = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        while (pending.length > 0) yield pending.shift()!;
        if (ended) return;
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
  return {
    watcher,
    push(event: Deno.FsEvent) {
      pending.push(event);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    closed: () => closed,
  };
}

Deno.test("files replaced by rename, written in place, removed and re-created are reported", async () => {
  await withDir(async (dir, native) => {
    await Deno.mkdir(join(dir, "extension"));
    const config = join(dir, "config.json");
    const auth = join(dir, "extension", "auth.json");
    await Deno.writeTextFile(config, "{}");
    await Deno.writeTextFile(auth, "{}");
    const seen: string[] = [];
    const watch = watchFiles([config, auth], (p) => seen.push(p), native);
    const replace = async (text: string) => {
      const temp = join(dir, ".config.json.1.tmp");
      await Deno.writeTextFile(temp, text);
      await Deno.rename(temp, config);
    };
    const seenAfter = async (what: string, change: () => Promise<void>, path: string) => {
      seen.length = 0;
      await change();
      await until(() => seen.includes(path), what);
    };
    try {
      assert(watch.active());
      await seenAfter("a rename", () => replace('{"port": 1}'), config);
      await seenAfter("a second rename (the watch was set up again)", () => replace("{}"), config);
      await seenAfter("an in-place write", () => Deno.writeTextFile(auth, '{"a":1}'), auth);
      await seenAfter("a removal", () => Deno.remove(auth), auth);
      await seenAfter("a re-creation", () => Deno.writeTextFile(auth, "{}"), auth);
      await seenAfter("a write after it", () => Deno.writeTextFile(auth, '{"b":2}'), auth);
      await new Promise((r) => setTimeout(r, 100)); // the write's last events
      seen.length = 0;
      for (let i = 0; i < 5; i++) await Deno.writeTextFile(join(dir, "audit.log"), "x\n");
      await new Promise((r) => setTimeout(r, 50));
      assertEquals(seen, [], "other files in the folder are not watched");
      assert(watch.active());
    } finally {
      watch.close();
    }
    assertEquals(watch.active(), false);
  });
});

Deno.test("an event without paths counts for every file; a replacing event watches anew", async () => {
  const fakes: ReturnType<typeof fakeWatcher>[] = [];
  const seen: string[] = [];
  const watch = watchFiles(
    ["/nonexistent/d/a.json", "/nonexistent/d/e/b.json"],
    (p) => seen.push(p),
    {
      watchFs: (targets) => {
        // Missing files are watched through their folders.
        assertEquals(targets, ["/nonexistent/d", "/nonexistent/d/e"]);
        fakes.push(fakeWatcher());
        return fakes.at(-1)!.watcher;
      },
    },
  );
  fakes[0].push({ kind: "modify", paths: ["/nonexistent/d/other.json"] });
  fakes[0].push({ kind: "modify", paths: ["/nonexistent/d/e/b.json"] });
  fakes[0].push({ kind: "other", paths: [] });
  await until(() => fakes.length === 2, "a new watch after the overflow");
  const [a, b] = ["/nonexistent/d/a.json", "/nonexistent/d/e/b.json"];
  // b's change, then the overflow (every file), then every file again for the gap between watches.
  assertEquals(seen, [b, a, b, a, b]);
  assert(fakes[0].closed(), "the old watch is closed");
  seen.length = 0;
  fakes[1].push({ kind: "modify", paths: ["/nonexistent/d/a.json"] });
  await until(() => seen.length === 1, "a change through the new watch");
  assertEquals(fakes.length, 2, "a modification does not set the watch up again");
  watch.close();
  assert(fakes[1].closed());
  assertEquals(watch.active(), false);
});

Deno.test("a watcher that cannot start or that stops is reported and inactive", async () => {
  const errors: string[] = [];
  const failing = watchFiles(["/d/a.json"], () => {}, {
    watchFs: () => {
      throw new Error("Too many open files (os error 24)");
    },
    onError: (m) => errors.push(m),
  });
  assertEquals(failing.active(), false);
  assertMatch(errors[0], /^Cannot watch \/d: Too many open files/);
  failing.close();

  const fake = fakeWatcher();
  const stopping = watchFiles(["/d/a.json"], () => {}, {
    watchFs: () => fake.watcher,
    onError: (m) => errors.push(m),
  });
  assert(stopping.active());
  fake.end();
  await until(() => !stopping.active(), "the end of the stream");
  assertMatch(errors[1], /^Watching \/d stopped/);
  stopping.close();
  assertEquals(errors.length, 2, "close() after the end reports nothing");
});

Deno.test("access events (opens, reads, closes) are not changes", async () => {
  const fake = fakeWatcher();
  const seen: string[] = [];
  const watch = watchFiles(["/d/a.json"], (p) => seen.push(p), { watchFs: () => fake.watcher });
  fake.push({ kind: "access", paths: ["/d/a.json"] });
  fake.push({ kind: "access", paths: [] });
  fake.push({ kind: "modify", paths: ["/d/a.json"] });
  await until(() => seen.length > 0, "the modification");
  assertEquals(seen, ["/d/a.json"], "only the modification counts");
  watch.close();
});

Deno.test("a live file read after an event does not report itself changed again", async () => {
  await withDir(async (dir, native) => {
    const path = join(dir, "config.json");
    Deno.writeTextFileSync(path, '{"v": 1}');
    let parses = 0;
    const file = liveFile(path, (t) => (parses++, JSON.parse(t) as { v: number }), () => {}, {
      maxAgeMs: 60_000,
      maxBytes: 1024,
    });
    let events = 0;
    const watch = watchFiles([path], () => (events++, file.touched()), native);
    try {
      Deno.writeTextFileSync(path, '{"v": 22}');
      await until(() => file.get().v === 22, "the change");
      const value = file.get();
      const [eventsThen, parsesThen] = [events, parses];
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 20)); // room for any event the reads caused
        assert(file.get() === value, "the same object while nothing changed");
      }
      assertEquals([events, parses], [eventsThen, parsesThen], "reads caused no events");
    } finally {
      watch.close();
    }
  });
});
