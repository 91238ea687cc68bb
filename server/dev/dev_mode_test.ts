import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { HubFiles } from "../hub_files.ts";
import type { Logger } from "../log/logger.ts";
import type { PluginReload } from "../plugins/plugin_host.ts";
import { startDevMode } from "./dev_mode.ts";

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Dev mode over a temp config dir with one built local plugin, and fakes for the hub's parts. */
async function withDevMode(
  fn: (t: {
    configPath: string;
    pluginDir: string;
    calls: string[];
    announce(): void;
    setConfig(c: HubConfig): Promise<void>;
    dev: ReturnType<typeof startDevMode>;
    ready(): void;
  }) => Promise<void>,
) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-dev-mode-" }));
  const configPath = join(root, "config.json");
  const pluginDir = join(root, "demo");
  await Deno.mkdir(join(pluginDir, "dist"), { recursive: true });
  await Deno.writeTextFile(join(pluginDir, "package.json"), '{"hub": {}}');
  let config: HubConfig = { ...defaultConfig(), localPlugins: [pluginDir] };
  const setConfig = async (c: HubConfig) => {
    config = c;
    await Deno.writeTextFile(configPath, JSON.stringify(c));
  };
  await setConfig(config);
  const calls: string[] = [];
  const announcers: (() => void)[] = [];
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const dev = startDevMode({
    configPath,
    configDir: root,
    files: { config: { get: () => config, refresh: () => config } } as unknown as HubFiles,
    plugins: { onChange() {} },
    lifecycle: {
      reload() {
        calls.push("reload");
        config = JSON.parse(Deno.readTextFileSync(configPath));
        return Promise.resolve({ plugins: 1, durationMs: 1 });
      },
      reloadPlugin(dir): Promise<PluginReload> {
        calls.push(`reloadPlugin ${dir === pluginDir ? "demo" : dir}`);
        return Promise.resolve({ kind: "reloaded", plugin: "demo", durationMs: 1 });
      },
    },
    changes: { onAnnounce: (listener) => void announcers.push(() => listener("permissions")) },
    ready,
    logger: { debug() {}, info() {}, warn() {}, error() {} } as Logger,
    watcher: { debounceMs: 20, pollMs: 60_000 },
  });
  try {
    await fn({
      configPath,
      pluginDir,
      calls,
      announce: () => announcers.forEach((a) => a()),
      setConfig,
      dev,
      ready: markReady,
    });
  } finally {
    dev.close();
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
    await Deno.writeTextFile(t.configPath, JSON.stringify(edited));
    await delay(100);
    await t.dev.idle();
    assertEquals(t.calls, ["reload"]);
    assertEquals(t.dev.status().lastEvent?.outcome, "applied");

    await t.setConfig({ ...edited, skipPermissions: false }); // the hub writes, then announces
    t.announce();
    await delay(100);
    await t.dev.idle();
    assertEquals(t.calls, ["reload"], "not applied a second time");
  });
});
