import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { HubFiles } from "../files/hub_files_interface.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { PluginReload } from "../plugins/plugin_host_interface.ts";
import type { AnnounceReason } from "../changes/config_changes_interface.ts";
import { startDevMode } from "./dev_mode.ts";
import { createWatchWorker } from "../../core/files/safe_watch.ts";

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Dev mode over a temp config dir with one built local plugin, and fakes for the hub's parts: the
 * live config reads the file as the hub's does, a full reload rediscovers from it, and every
 * announcement carries the live config.
 */
async function withDevMode(
  fn: (t: {
    configPath: string;
    pluginDir: string;
    calls: string[];
    announce(): void;
    setConfig(c: HubConfig): Promise<void>;
    discovered(): HubConfig;
    dev: ReturnType<typeof startDevMode>;
    ready(): void;
  }) => Promise<void>,
) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-dev-mode-" }));
  const configPath = join(root, "config.json");
  const pluginDir = join(root, "demo");
  await Deno.mkdir(join(pluginDir, "dist"), { recursive: true });
  await Deno.writeTextFile(join(pluginDir, "package.json"), '{"hub": {}}');
  const setConfig = (c: HubConfig) => Deno.writeTextFile(configPath, JSON.stringify(c));
  await setConfig({ ...defaultConfig(), localPlugins: [pluginDir] });
  const live = (): HubConfig => JSON.parse(Deno.readTextFileSync(configPath));
  let discovered = live();
  const calls: string[] = [];
  const listeners: ((reason: AnnounceReason, config: HubConfig) => void)[] = [];
  const announce = (reason: AnnounceReason) => listeners.forEach((l) => l(reason, live()));
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const worker = createWatchWorker();
  const dev = startDevMode({
    configPath,
    configDir: root,
    files: { config: { get: live, refresh: live }, watchFs: worker.watchFs } as unknown as HubFiles,
    plugins: { onChange() {}, discoveredWith: () => discovered },
    lifecycle: {
      reload() {
        calls.push("reload");
        discovered = live();
        announce("reload");
        return Promise.resolve({ plugins: 1, durationMs: 1 });
      },
      reloadPlugin(dir): Promise<PluginReload> {
        calls.push(`reloadPlugin ${dir === pluginDir ? "demo" : dir}`);
        announce("reload");
        return Promise.resolve({ kind: "reloaded", plugin: "demo", durationMs: 1 });
      },
    },
    changes: {
      onAnnounce: (listener) => void listeners.push(listener),
      announce(reason) {
        calls.push(`announce ${reason}`);
        announce(reason);
      },
    },
    ready,
    logger: { debug() {}, info() {}, warn() {}, error() {} } as Logger,
    watcher: { debounceMs: 40, pollMs: 60_000 },
  });
  try {
    await fn({
      configPath,
      pluginDir,
      calls,
      announce: () => announce("permissions"),
      setConfig,
      discovered: () => discovered,
      dev,
      ready: markReady,
    });
  } finally {
    dev.close();
    worker.terminate();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("dev mode starts watching once the startup discovery is done", async () => {
  await withDevMode(async (t) => {
    await delay(30);
    assertEquals(t.dev.status().watchedPlugins, 0, "not before discovery");
    t.ready();
    await t.dev.idle();
    assertEquals(t.dev.status().watchedPlugins, 1);
  });
});

Deno.test("a rebuilt plugin goes to the single-plugin reload; lastEvent says so", async () => {
  await withDevMode(async (t) => {
    t.ready();
    await t.dev.idle();
    await Deno.writeTextFile(join(t.pluginDir, "dist", "tools.json"), "{}");
    await delay(100);
    await t.dev.idle();
    assertEquals(t.calls, ["reloadPlugin demo"]);
    const event = t.dev.status().lastEvent;
    assertEquals([event?.kind, event?.plugin, event?.outcome], ["plugin", "demo", "reloaded"]);
  });
});

Deno.test("a config hand edit is applied; the hub's own announced write is not", async () => {
  await withDevMode(async (t) => {
    t.ready();
    await t.dev.idle();
    const edited = { ...defaultConfig(), localPlugins: [t.pluginDir], skipPermissions: true };
    await t.setConfig(edited);
    await delay(150);
    await t.dev.idle();
    assertEquals(t.calls, ["announce permissions"], "permissions only: announced, not reloaded");
    assertEquals(t.dev.status().lastEvent?.outcome, "applied");

    await t.setConfig({ ...edited, skipPermissions: false }); // the hub writes, then announces
    t.announce();
    await delay(150);
    await t.dev.idle();
    assertEquals(t.calls, ["announce permissions"], "not applied a second time");
  });
});

Deno.test("a localPlugins edit is rediscovered even when a plugin reload announces during its debounce", async () => {
  await withDevMode(async (t) => {
    t.ready();
    await t.dev.idle();
    await Deno.writeTextFile(join(t.pluginDir, "dist", "adapter.iife.js"), "// rebuilt");
    await delay(10);
    await t.setConfig({ ...defaultConfig(), localPlugins: [] });
    await delay(150);
    await t.dev.idle();
    assertEquals(t.calls, ["reloadPlugin demo", "reload"]);
    assertEquals(t.discovered().localPlugins, [], "the plugin is no longer discovered");
    assertEquals(t.dev.status().lastEvent?.kind, "config");
    assertEquals(t.dev.status().lastEvent?.outcome, "applied");
  });
});

Deno.test("a settings edit racing the hub's own permission write is still rediscovered", async () => {
  await withDevMode(async (t) => {
    t.ready();
    await t.dev.idle();
    const settings = { demo: { workspace: "b" } };
    await t.setConfig({ ...defaultConfig(), localPlugins: [t.pluginDir], settings });
    t.announce(); // a side-panel permission write lands and announces before the debounce ends
    await delay(150);
    await t.dev.idle();
    assertEquals(t.calls, ["reload"]);
    assertEquals(t.discovered().settings, settings);
  });
});
