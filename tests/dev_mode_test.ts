/**
 * Dev mode end to end with a real hub process (HUB_DEV=1): the test plugin rebuilt with
 * `hub-plugin build` against that hub (the author's flow: the build leaves it to the hub's watcher
 * and reports what the hub did), or by a tool that does not reach the hub, is reloaded alone
 * (reloadCount unchanged), the extension gets `plugin.update`, MCP clients `tools/list_changed`
 * and the new tool list; a broken build keeps the last good one serving; a config.json hand edit
 * is applied, a broken one rejected while the hub keeps serving, the hub's own config writes are
 * not applied twice, and an edit of localPlugins racing a plugin reload is still rediscovered.
 * Production mode ignores rebuilds.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  freePort,
  runHub,
  type RunningHub,
  startHub,
  tempConfigDir,
  withTempDir,
} from "./helpers/hub_process.ts";
import { eventually, health, listTools, readConfig, writeConfig } from "./helpers/hub_api.ts";
import { buildPluginDir, buildTestPlugin } from "./helpers/test_plugin.ts";
import { FakeExtension, type Json } from "./helpers/fake_extension.ts";
import { type Client, connectMcp } from "./helpers/mcp_client.ts";

const PLUGIN = "test-app";
const ECHO = `${PLUGIN}__echo`;
const OLD_DESCRIPTION = "Returns its input unchanged.";

interface World {
  configDir: string;
  pluginDir: string;
  hub: RunningHub;
}

/** The built test plugin (permission auto) and a hub on it; `dev` sets HUB_DEV=1. */
async function withWorld(dev: boolean, fn: (w: World) => Promise<void>) {
  const configDir = await tempConfigDir();
  const pluginDir = await buildTestPlugin(configDir);
  try {
    const config = await readConfig(configDir);
    await writeConfig(configDir, { ...config, permissions: { [PLUGIN]: { permission: "auto" } } });
    const hub = await startHub({ configDir, env: dev ? { HUB_DEV: "1" } : {} });
    try {
      await fn({ configDir, pluginDir, hub });
    } finally {
      assertEquals(await hub.stop(), 0, hub.output());
    }
  } finally {
    await Deno.remove(pluginDir, { recursive: true }).catch(() => {});
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
  }
}

/**
 * Changes the echo tool's description in the plugin's source and rebuilds it with `hub-plugin
 * build`, telling the hub on `port` (default: a dead port, as a rebuild by another tool).
 * Returns the build's output.
 */
async function rebuildWithDescription(w: World, description: string, port?: number) {
  const source = join(w.pluginDir, "src", "index.ts");
  const code = await Deno.readTextFile(source);
  const changed = code.replace(/(name: "echo",\s*description: )"[^"]*"/, `$1"${description}"`);
  assert(changed.includes(`"${description}"`), "the echo tool was not found in the source");
  await Deno.writeTextFile(source, changed);
  return await buildPluginDir(w.pluginDir, w.configDir, { port });
}

async function echoDescription(hub: RunningHub): Promise<string | undefined> {
  return (await listTools(hub, PLUGIN)).find((t) => t.name === ECHO)?.description;
}

/** An MCP client counting list_changed, once its notification stream is open. */
async function listChangedCounter(hub: RunningHub, ext: FakeExtension) {
  const client: Client = await connectMcp(hub.url, hub.secret);
  let changes = 0;
  let logs = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => void logs++);
  await eventually(
    () => {
      ext.notify("plugin.log", { plugin: PLUGIN, entries: [{ level: "info", message: "check" }] });
      return Promise.resolve(logs > 0);
    },
    () => "the MCP notification stream never opened",
    5_000,
  );
  return { client, changes: () => changes };
}

Deno.test("dev mode: hub-plugin build against the dev hub reloads that plugin alone", async () => {
  await withWorld(true, async (w) => {
    const { hub } = w;
    const start = await health(hub);
    assertEquals(start.mode, "dev");
    await eventually(
      async () => (await health(hub)).fileWatcher?.watchedPlugins === 1,
      async () => `fileWatcher: ${JSON.stringify((await health(hub)).fileWatcher)}`,
    );
    const ext = await FakeExtension.connect(hub.port, hub.secret);
    const mcp = await listChangedCounter(hub, ext);
    try {
      assertEquals(await echoDescription(hub), OLD_DESCRIPTION);
      const update = ext.next("plugin.update", 30_000);

      const built = await rebuildWithDescription(w, "Returns its input, rebuilt.", hub.port);
      assertMatch(built, /The hub \(dev mode\) reloaded "test-app" alone: it serves \d+ tools/);

      const plugin: Json = (await update).params.plugin;
      assertEquals(plugin.name, PLUGIN);
      assertEquals(
        plugin.tools.find((t: Json) => t.name === ECHO).description,
        "Returns its input, rebuilt.",
      );
      await eventually(
        async () => (await echoDescription(hub)) === "Returns its input, rebuilt.",
        () => "tools/list never showed the new description",
      );
      await eventually(() => Promise.resolve(mcp.changes() >= 1), () => "no tools/list_changed");
      const { tools } = await mcp.client.listTools();
      assertEquals(
        tools.find((t: Json) => t.name === ECHO)?.description,
        "Returns its input, rebuilt.",
      );
      const after = await health(hub);
      assertEquals(
        after.reloadCount,
        start.reloadCount,
        "one plugin's reload is not a full reload",
      );
      assertEquals(after.fileWatcher?.lastEvent?.kind, "plugin");
      assertEquals(after.fileWatcher?.lastEvent?.plugin, PLUGIN);
      assertEquals(after.fileWatcher?.lastEvent?.outcome, "reloaded");
      assertEquals(after.fileWatcher?.pendingPlugins, 0);
      assertMatch(hub.output(), /Reloaded plugin "test-app" in \d+ ms/);
      assert(!hub.output().includes("Reloaded: "), "no full reload ran");

      // A broken build: the last good one keeps serving, the reason is in failedPlugins.
      await Deno.writeTextFile(join(w.pluginDir, "dist", "tools.json"), "{ broken");
      await eventually(
        async () => (await health(hub)).failedPlugins.length === 1,
        () => `the broken build never showed in failedPlugins:\n${hub.output()}`,
      );
      const broken = await health(hub);
      assertMatch(
        broken.failedPlugins[0].error,
        /tools\.json is broken.*last good build keeps serving/,
      );
      assertEquals(broken.fileWatcher?.lastEvent?.outcome, "failed");
      assertEquals(await echoDescription(hub), "Returns its input, rebuilt.");
      assertEquals(broken.plugins, 1);
      const fixed = await rebuildWithDescription(w, "Returns its input, fixed.", hub.port);
      assertMatch(fixed, /reloaded "test-app" alone/);
      assertEquals(await echoDescription(hub), "Returns its input, fixed.");
      assertEquals((await health(hub)).failedPlugins, []);

      // A rebuild by a tool that does not reach the hub: the watcher alone notices it.
      await rebuildWithDescription(w, "Returns its input, rebuilt elsewhere.");
      await eventually(
        async () => (await echoDescription(hub)) === "Returns its input, rebuilt elsewhere.",
        () => "the rebuild by another tool never came in",
      );
      assertEquals((await health(hub)).reloadCount, start.reloadCount, "still no full reload");
      assert(!hub.output().includes("Reloaded: "), "no full reload ran");
    } finally {
      await mcp.client.close();
      await ext.close();
    }
  });
});

Deno.test("dev mode: config.json hand edits are applied or rejected; the hub's own writes are not re-applied", async () => {
  await withWorld(true, async (w) => {
    const { hub, configDir } = w;
    await eventually(
      async () => (await health(hub)).fileWatcher?.watchedPlugins === 1,
      () => "the watcher never started",
    );
    const ext = await FakeExtension.connect(hub.port, hub.secret);
    const mcp = await listChangedCounter(hub, ext);
    try {
      // A valid edit: the plugin turned off by hand.
      const sync = ext.next("sync.full", 10_000);
      const config = await readConfig(configDir);
      await writeConfig(configDir, { ...config, permissions: { [PLUGIN]: { permission: "off" } } });
      const synced: Json = (await sync).params;
      assertEquals(synced.plugins.find((p: Json) => p.name === PLUGIN).permission, "off");
      await eventually(() => Promise.resolve(mcp.changes() >= 1), () => "no list_changed");
      assertEquals((await health(hub)).fileWatcher?.lastEvent?.outcome, "applied");

      // A broken edit: rejected with the reason in the log; the hub keeps serving the last config.
      await Deno.writeTextFile(join(configDir, "config.json"), '{ "port": ');
      await eventually(
        async () => (await health(hub)).fileWatcher?.lastEvent?.outcome === "rejected",
        () => `the broken edit was never rejected:\n${hub.output()}`,
      );
      assertMatch(hub.output(), /Dev mode: rejected the edit of .*config\.json: .*invalid JSON/);
      const serving = await health(hub);
      assertEquals([serving.status, serving.plugins], ["ok", 1]);
      assert((await listTools(hub, PLUGIN)).some((t) => t.name === ECHO));

      // Fixed again, then the hub's own write (a permission from the side panel): not re-applied.
      const changesBefore = mcp.changes();
      await writeConfig(configDir, config);
      await eventually(
        async () => (await health(hub)).fileWatcher?.lastEvent?.outcome === "applied",
        () => "the fixed config was never applied",
      );
      const reloads = (await health(hub)).reloadCount;
      const applied = hub.output().match(/Dev mode: applied the edit/g)?.length;
      const set = await ext.request("config.setToolPermission", {
        plugin: PLUGIN,
        tool: "echo",
        permission: "ask",
      });
      assertEquals(set.error, undefined);
      await new Promise((r) => setTimeout(r, 1_000)); // well past the debounce
      assertEquals((await health(hub)).reloadCount, reloads, "no reload for the hub's own write");
      assertEquals(hub.output().match(/Dev mode: applied the edit/g)?.length, applied);
      assertEquals((await readConfig(configDir)).permissions[PLUGIN].tools.echo, "ask");
      assert(mcp.changes() > changesBefore);

      // localPlugins emptied by hand while a plugin reload (which announces) runs: rediscovered.
      await Deno.writeTextFile(join(w.pluginDir, "dist", "adapter.iife.js"), "\n// touched", {
        append: true,
      });
      await new Promise((r) => setTimeout(r, 80));
      await writeConfig(configDir, { ...(await readConfig(configDir)), localPlugins: [] });
      await eventually(
        async () => (await health(hub)).plugins === 0,
        async () => `the plugin is still served: ${JSON.stringify(await health(hub))}`,
      );
    } finally {
      await mcp.client.close();
      await ext.close();
    }
  });
});

Deno.test("production mode runs no plugin watchers: a rebuild changes nothing until a reload", async () => {
  await withWorld(false, async (w) => {
    const { hub } = w;
    const start = await health(hub);
    assertEquals(start.mode, "production");
    assertEquals(start.fileWatcher, undefined);
    const ext = await FakeExtension.connect(hub.port, hub.secret);
    try {
      await rebuildWithDescription(w, "Returns its input, unseen.");
      await new Promise((r) => setTimeout(r, 1_500));
      assertEquals(await echoDescription(hub), OLD_DESCRIPTION);
      assert(!ext.received.some((m) => m.method === "plugin.update"));
      assertEquals((await health(hub)).reloadCount, 0);
    } finally {
      await ext.close();
    }
  });
});

Deno.test("hub start --dev turns dev mode on without HUB_DEV", async () => {
  const configDir = await tempConfigDir();
  const hub = await startHub({ configDir, args: ["--dev"] });
  try {
    const body = await health(hub);
    assertEquals(body.mode, "dev");
    assertEquals(body.fileWatcher?.lastEvent, null);
    assertMatch(hub.output(), /\(dev mode, config /);
  } finally {
    assertEquals(await hub.stop(), 0, hub.output());
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("hub start --background --dev passes dev mode on to the background hub", async () => {
  await withTempDir(async (dir) => {
    const port = String(freePort());
    let pid: number | undefined;
    try {
      const start = await runHub(["start", "--background", "--dev", "--port", port], {
        configDir: dir,
        timeoutMs: 30_000,
      });
      assertEquals(start.code, 0, start.stderr);
      pid = JSON.parse(await Deno.readTextFile(join(dir, "server.pid"))).pid;
      const status = await runHub(["status", "--json", "--port", port], { configDir: dir });
      assertEquals(status.code, 0, status.stderr);
      const body = JSON.parse(status.stdout);
      assertEquals(body.mode, "dev");
      assertEquals(body.fileWatcher.watchedPlugins, 0);
      const stop = await runHub(["stop", "--port", port], { configDir: dir });
      assertEquals(stop.code, 0, stop.stderr);
      pid = undefined;
    } finally {
      if (pid !== undefined) Deno.kill(pid, "SIGKILL");
    }
  });
});
