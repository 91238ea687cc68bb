import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { Logger } from "../log/logger_interface.ts";
import { createDevWatcher, type DevWatcherDeps } from "./dev_watcher.ts";
import { createWatchWorker, type FsWatcher } from "../../core/files/safe_watch.ts";
import { until } from "../../tests/helpers/until.ts";

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface World {
  root: string;
  configPath: string;
  dirs: string[];
  changes: string[];
  warnings: string[];
  /** How long each plugin reaction takes (ms). */
  slowMs: number;
}

/** A temp config dir and plugin folders; `plugin(name, built)` adds one. */
async function withWorld(
  fn: (
    w: World,
    make: (deps?: Partial<DevWatcherDeps>) => ReturnType<typeof createDevWatcher>,
  ) => Promise<void>,
) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-dev-watch-" }));
  await Deno.mkdir(join(root, "config"));
  const w: World = {
    root,
    configPath: join(root, "config", "config.json"),
    dirs: [],
    changes: [],
    warnings: [],
    slowMs: 0,
  };
  await Deno.writeTextFile(w.configPath, "{}");
  const logger = { debug() {}, info() {}, warn: (m: string) => w.warnings.push(m), error() {} };
  const watchers: ReturnType<typeof createDevWatcher>[] = [];
  const worker = createWatchWorker();
  await worker.ready();
  const make = (deps: Partial<DevWatcherDeps> = {}) => {
    const watcher = createDevWatcher({
      watchFs: worker.watchFs,
      configPath: w.configPath,
      pluginDirs: () => Promise.resolve([...w.dirs]),
      async pluginChanged(dir) {
        w.changes.push(dir.slice(root.length + 1));
        await delay(w.slowMs);
        return { outcome: "reloaded", plugin: dir.slice(root.length + 1) };
      },
      configChanged: () => (w.changes.push("config"), Promise.resolve({ outcome: "applied" })),
      logger: logger as Logger,
      debounceMs: 40,
      pollMs: 60_000,
      fallbackPollMs: 30,
      ...deps,
    });
    watchers.push(watcher);
    return watcher;
  };
  try {
    await fn(w, make);
  } finally {
    for (const watcher of watchers) watcher.close();
    worker.terminate();
    await Deno.remove(root, { recursive: true });
  }
}

async function plugin(w: World, name: string, built = true): Promise<string> {
  const dir = join(w.root, name);
  await Deno.mkdir(dir);
  if (built) await build(dir, "1");
  w.dirs.push(dir);
  return dir;
}

/** Writes both build files the way a build does (temp file, then rename). */
async function build(dir: string, version: string) {
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  for (const name of ["tools.json", "adapter.iife.js"]) {
    const temp = join(dir, "dist", `.${name}.tmp`);
    await Deno.writeTextFile(temp, `${name} ${version}`);
    await Deno.rename(temp, join(dir, "dist", name));
  }
}

Deno.test("a rebuild (two files, renamed into dist/) reloads that plugin once", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    await plugin(w, "b");
    const watcher = make();
    await watcher.refresh();
    assertEquals(watcher.status().watchedPlugins, 2);
    await build(a, "2");
    await until(() => w.changes.length > 0, "the reload");
    await watcher.idle();
    await delay(80);
    assertEquals(w.changes, ["a"]);
    const status = watcher.status();
    assertEquals(status.pendingPlugins, 0);
    assertEquals(status.pollDetections, 0, "native watching saw it");
    assertEquals([status.lastEvent?.kind, status.lastEvent?.plugin], ["plugin", "a"]);
    assertEquals(status.lastEvent?.outcome, "reloaded");
  });
});

Deno.test("pendingPlugins counts plugins waiting for or in their reload", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const b = await plugin(w, "b");
    w.slowMs = 300;
    const watcher = make();
    await watcher.refresh();
    await build(a, "2");
    await build(b, "2");
    await until(() => watcher.status().pendingPlugins === 2, "two pending plugins");
    await watcher.idle();
    assertEquals(watcher.status().pendingPlugins, 0);
    assertEquals(w.changes.sort(), ["a", "b"]);
  });
});

Deno.test("config.json replaced by rename is seen; other files in the config dir are not", async () => {
  await withWorld(async (w, make) => {
    const watcher = make();
    await watcher.refresh();
    await Deno.writeTextFile(join(w.root, "config", "server.log"), "noise");
    await Deno.writeTextFile(join(w.root, "config", "config.json.lock"), "1");
    const temp = join(w.root, "config", ".config.json.1.tmp");
    await Deno.writeTextFile(temp, '{"port": 1}');
    await Deno.rename(temp, w.configPath);
    await until(() => w.changes.length > 0, "the config change");
    await watcher.idle();
    await delay(80);
    assertEquals(w.changes, ["config"]);
    assertEquals(watcher.status().lastEvent?.kind, "config");
  });
});

Deno.test("when native watching throws, the poll finds changes by their stamps", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const failing = (): FsWatcher => {
      throw new Error("inotify watch limit reached");
    };
    const watcher = make({ watchFs: failing });
    await watcher.refresh();
    assertMatch(
      w.warnings[0],
      /native file watching failed \(inotify watch limit reached\); polling every 30 ms/,
    );
    await delay(50);
    assert(watcher.status().lastPollAt !== null, "the poll ran");
    assertEquals(w.changes, [], "no change, no reload");
    await build(a, "2");
    await until(() => w.changes.length > 0, "the poll's detection");
    await watcher.idle();
    assertEquals(w.changes, ["a"]);
    assertEquals(watcher.status().pollDetections, 1);
  });
});

Deno.test("a native watcher that dies later hands over to the poll", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const dying = (): FsWatcher => ({
      close() {},
      [Symbol.asyncIterator]: () => ({
        next: () => delay(20).then(() => Promise.reject(new Error("watcher broke"))),
      }),
    });
    const watcher = make({ watchFs: dying });
    await watcher.refresh();
    await until(() => w.warnings.length > 0, "the fallback warning");
    await build(a, "2");
    await until(() => w.changes.length > 0, "the poll's detection");
    assertEquals(watcher.status().pollDetections, 1);
  });
});

Deno.test("a plugin without dist/ is watched for it to appear, then its dist/ is watched", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a", false);
    const watcher = make();
    await watcher.refresh();
    assertEquals(watcher.status().watchedPlugins, 1);
    await build(a, "1");
    await until(() => w.changes.length > 0, "the first build");
    await watcher.idle();
    w.changes.length = 0;
    await build(a, "2");
    await until(() => w.changes.length > 0, "the second build, seen in dist/");
    assertEquals(w.changes, ["a"]);
  });
});

Deno.test("the watched set follows refresh (a plugin added, one removed)", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const watcher = make();
    await watcher.refresh();
    const b = await plugin(w, "b");
    w.dirs = [b];
    await watcher.refresh();
    assertEquals(watcher.status().watchedPlugins, 1);
    await build(a, "2");
    await build(b, "2");
    await until(() => w.changes.length > 0, "b's reload");
    await watcher.idle();
    await delay(80);
    assertEquals(w.changes, ["b"]);
  });
});

Deno.test("the watched set is capped, with a log line saying so", async () => {
  await withWorld(async (w, make) => {
    await plugin(w, "a");
    await plugin(w, "b");
    await plugin(w, "c");
    const watcher = make({ maxPlugins: 2 });
    await watcher.refresh();
    assertEquals(watcher.status().watchedPlugins, 2);
    assertMatch(w.warnings[0], /watches 2 of 3 local plugins/);
    await watcher.refresh();
    assertEquals(w.warnings.length, 1, "said once for the same count");
  });
});

Deno.test("after close nothing reacts any more", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const watcher = make({ pollMs: 20 });
    await watcher.refresh();
    watcher.close();
    await build(a, "2");
    await delay(150);
    assertEquals(w.changes, []);
  });
});

Deno.test("dist/ removed and built again is still watched natively (no poll needed)", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const watcher = make(); // the safety-net poll runs once a minute here: native events only
    await watcher.refresh();
    for (const round of ["2", "3"]) {
      await Deno.remove(join(a, "dist"), { recursive: true }); // rm -rf dist, git clean
      await until(() => w.changes.length > 0, `the removal before build ${round}`);
      await watcher.idle();
      w.changes.length = 0;
      await build(a, round);
      await until(() => w.changes.length > 0, `build ${round} in the new dist/`);
      await watcher.idle();
      w.changes.length = 0;
    }
    await build(a, "4"); // a plain rebuild into the dist/ made last
    await until(() => w.changes.length > 0, "the rebuild in the recreated dist/");
    assertEquals(watcher.status().pollDetections, 0, "native watching saw every change");
  });
});

Deno.test("a change the poll finds renews the native watch", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    let watches = 0;
    /** The first watcher is deaf (a watch lost with its folder); later ones are real. */
    const deafFirst = (paths: string[]): FsWatcher => {
      if (++watches > 1) return Deno.watchFs(paths, { recursive: false });
      let close = () => {};
      const closed = new Promise<IteratorResult<Deno.FsEvent>>((resolve) =>
        close = () => resolve({ done: true, value: undefined })
      );
      return { close, [Symbol.asyncIterator]: () => ({ next: () => closed }) };
    };
    const watcher = make({ watchFs: deafFirst, pollMs: 300 });
    await watcher.refresh();
    await build(a, "2");
    await until(() => w.changes.length > 0, "the poll's detection");
    await watcher.idle();
    assertEquals([watches, watcher.status().pollDetections], [2, 1], "watched again");
    w.changes.length = 0;
    await build(a, "3");
    await until(() => w.changes.length > 0, "the next build", 250);
    await watcher.idle();
    assertEquals(watcher.status().pollDetections, 1, "seen natively again");
  });
});

Deno.test("after a failed native watch, the next refresh watches natively again", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    let fail = true;
    const flaky = (paths: string[]): FsWatcher => {
      if (fail) throw new Deno.errors.NotFound("No path was found.");
      return Deno.watchFs(paths, { recursive: false });
    };
    const infos: string[] = [];
    const watcher = make({
      watchFs: flaky,
      fallbackPollMs: 60_000,
      logger: {
        debug() {},
        info: (m: string) => infos.push(m),
        warn: (m: string) => w.warnings.push(m),
        error() {},
      } as Logger,
    });
    await watcher.refresh();
    assertMatch(w.warnings[0], /native file watching failed \(No path was found\.\)/);
    fail = false;
    await watcher.refresh();
    assertMatch(infos.join("\n"), /native file watching works again/);
    await build(a, "2");
    await until(() => w.changes.length > 0, "the rebuild, seen natively");
    assertEquals(watcher.status().pollDetections, 0);
    assertEquals(w.warnings.length, 1);
  });
});

Deno.test("a rebuild to the same build shows as unchanged; a config write that changed nothing does not show", async () => {
  await withWorld(async (w, make) => {
    const a = await plugin(w, "a");
    const watcher = make({
      pluginChanged: (dir) =>
        Promise.resolve({ outcome: "unchanged", plugin: dir.slice(w.root.length + 1) }),
      configChanged: () => Promise.resolve({ outcome: "unchanged" }),
    });
    await watcher.refresh();
    await build(a, "1");
    await until(() => watcher.status().lastEvent !== null, "the plugin's event");
    await watcher.idle();
    const event = watcher.status().lastEvent;
    assertEquals([event?.kind, event?.plugin, event?.outcome], ["plugin", "a", "unchanged"]);
    await Deno.writeTextFile(w.configPath, "{ }");
    await delay(120);
    await watcher.idle();
    assertEquals(watcher.status().lastEvent, event);
  });
});
