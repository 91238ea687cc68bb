/**
 * End to end: the plugin package requests of `/ws`, as the side panel sends them, on a real
 * WebSocket to the real hub (main.ts under the task's permission flags) whose npm talks to a real
 * registry on loopback (verdaccio) and installs into a temp global prefix. Search, install (progress
 * frames, plugins.changed, the plugin synced as an npm package and `off`), the background update
 * check turned on by a config change, plugin.checkUpdates after 1.1.0 is published, the update
 * (permissions reset until reviewed), remove (plugin.uninstall), folder.open's refusal, removing a
 * localPlugins entry by its path (longer than a package name may be), and a
 * registry that is down (an error reply with its code in `data`). Prints the install-to-listed and
 * search times.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { FakeExtension, type Json, type ReceivedMessage } from "./helpers/fake_extension.ts";
import { startHub } from "./helpers/hub_process.ts";
import { api, listTools, readConfig, writeConfig } from "./helpers/hub_api.ts";
import { globalRoot } from "./helpers/npm_install.ts";
import { startRegistry } from "./helpers/registry.ts";
import { COMMUNITY_PACKAGE, publishTestPlugin, TEST_TOOL } from "./helpers/plugin_packages.ts";
import { toolName } from "../protocol/call_contract.ts";

const PLUGIN = "beta";
const TOOL = toolName(PLUGIN, TEST_TOOL);
/** The test plugin's URL patterns, which install results carry. */
const TEST_URL_PATTERNS = ["http://127.0.0.1/*", "http://localhost/*"];

/** The result of a request, failing the test with the error when there is one. */
async function result(ext: FakeExtension, method: string, params?: Json): Promise<Json> {
  const reply = await ext.request(method, params);
  assert(reply.error === undefined, `${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
}

/** The messages with `method` received after index `from`. */
function since(ext: FakeExtension, from: number, method: string): ReceivedMessage[] {
  return ext.received.slice(from).filter((m) => m.method === method);
}

const lastSync = (ext: FakeExtension) =>
  ext.received.findLast((m) => m.method === "sync.full")!.params;
const syncedPlugin = (ext: FakeExtension) =>
  lastSync(ext).plugins.find((p: Json) => p.name === PLUGIN);

Deno.test("/ws plugin packages against a real registry: search, install, update check, update, remove, registry down", async (t) => {
  const registry = await startRegistry();
  const work = await Deno.makeTempDir({ prefix: "hub-ws-packages-" });
  const configDir = join(work, "config");
  const prefix = join(work, "prefix");
  const root = globalRoot(prefix);
  await Deno.mkdir(root, { recursive: true });
  await writeConfig(configDir, { updateCheckIntervalMinutes: 0 });
  await publishTestPlugin(registry, COMMUNITY_PACKAGE, "1.0.0");
  const hub = await startHub({
    configDir,
    env: registry.env({
      HUB_NPM_ROOT: root,
      NPM_CONFIG_PREFIX: prefix,
      HUB_SKIP_PKG_DISCOVERY: "0",
    }),
  });
  const ext = await FakeExtension.connect(hub.port, hub.secret);
  ext.onMessage((m) => {
    // Answer the hub's plugin.uninstall the way the extension does.
    if (m.method === "plugin.uninstall") {
      ext.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { ok: true } }));
    }
  });
  try {
    await ext.waitFor((m) => m.method === "sync.full");

    await t.step("plugin.search finds the package, not installed yet", async () => {
      const started = performance.now();
      const found = await result(ext, "plugin.search", { query: PLUGIN });
      console.log(`plugin.search over /ws: ${(performance.now() - started).toFixed(0)} ms`);
      const beta = found.packages.find((p: Json) => p.name === COMMUNITY_PACKAGE);
      assertEquals([beta?.version, beta?.official, beta?.installedVersion], [
        "1.0.0",
        false,
        undefined,
      ]);
      const done = ext.received.filter((m) => m.method === "plugin.progress" && m.params.done);
      assertEquals(done.at(-1)?.params.operation, "search");
    });

    await t.step(
      "plugin.install: progress while npm runs, then plugins.changed; the plugin is off",
      async () => {
        const from = ext.received.length;
        const started = performance.now();
        const installed = await result(ext, "plugin.install", { name: PLUGIN });
        const tools = await listTools(hub, PLUGIN);
        const ms = performance.now() - started;
        console.log(
          `plugin.install over /ws to the tool listed by the running hub: ${ms.toFixed(0)} ms`,
        );
        assertEquals(installed, {
          name: COMMUNITY_PACKAGE,
          plugin: PLUGIN,
          version: "1.0.0",
          urlPatterns: TEST_URL_PATTERNS,
        });
        assert(tools.some((tool) => tool.name === TOOL), tools.map((tool) => tool.name).join(", "));
        assert(tools.every((tool) => tool.permission === "off"), "a new plugin starts off");
        const progress = since(ext, from, "plugin.progress").map((m) => m.params);
        assert(progress.length >= 2, JSON.stringify(progress));
        const names = new Set([PLUGIN, COMMUNITY_PACKAGE]); // as sent, or as resolved
        assert(progress.every((p) => p.operation === "install" && names.has(p.name)));
        assertEquals(progress.at(-1).done, true);
        assertEquals(progress.slice(0, -1).some((p) => p.done), false);
        await ext.waitFor((m) => m.method === "plugins.changed" && ext.received.indexOf(m) >= from);
        assertEquals(since(ext, from, "plugins.changed").map((m) => m.params.reason), ["reload"]);
        const synced = syncedPlugin(ext);
        assertEquals(
          [synced.source, synced.packageName, synced.dir, synced.version, synced.permission],
          ["npm", COMMUNITY_PACKAGE, undefined, "1.0.0", "off"],
        );
        assert(synced.tools.every((tool: Json) => tool.permission === "off"));
      },
    );

    await t.step("the person allows it (reviewing 1.0.0)", async () => {
      await result(ext, "config.setPluginPermission", { plugin: PLUGIN, permission: "ask" });
      assert((await listTools(hub, PLUGIN)).every((tool) => tool.permission === "ask"));
    });

    await publishTestPlugin(registry, COMMUNITY_PACKAGE, "1.1.0");

    await t.step(
      "the background check, turned on in the config, finds 1.1.0 by itself",
      async () => {
        const from = ext.received.length;
        const config = await readConfig(configDir);
        await writeConfig(configDir, { ...config, updateCheckIntervalMinutes: 0.05 });
        assertEquals((await api(hub, "POST", "/reload")).status, 200);
        const found = await ext.waitFor(
          (m) =>
            m.method === "sync.full" && ext.received.indexOf(m) >= from &&
            m.params.updates?.updates.length > 0,
          30_000,
        );
        assertEquals(found.params.updates.updates, [{
          name: COMMUNITY_PACKAGE,
          plugin: PLUGIN,
          installedVersion: "1.0.0",
          latestVersion: "1.1.0",
        }]);
        await writeConfig(configDir, { ...config, updateCheckIntervalMinutes: 0 });
        assertEquals((await api(hub, "POST", "/reload")).status, 200);
      },
    );

    await t.step("plugin.checkUpdates answers the same at once", async () => {
      const check = await result(ext, "plugin.checkUpdates", {});
      assertEquals(check.error, undefined);
      assert(check.checkedAt > 0);
      assertEquals(check.updates.map((u: Json) => [u.name, u.latestVersion]), [
        [COMMUNITY_PACKAGE, "1.1.0"],
      ]);
    });

    await t.step(
      "plugin.updateFromRegistry installs 1.1.0 and resets the permission until reviewed",
      async () => {
        const from = ext.received.length;
        const updated = await result(ext, "plugin.updateFromRegistry", { name: PLUGIN });
        assertEquals(updated, {
          name: COMMUNITY_PACKAGE,
          plugin: PLUGIN,
          version: "1.1.0",
          urlPatterns: TEST_URL_PATTERNS,
          previousVersion: "1.0.0",
        });
        await ext.waitFor((m) => m.method === "plugins.changed" && ext.received.indexOf(m) >= from);
        const synced = syncedPlugin(ext);
        assertEquals([synced.version, synced.needsReview, synced.reviewedVersion], [
          "1.1.0",
          true,
          "1.0.0",
        ]);
        assert(
          synced.tools.every((tool: Json) => tool.permission === "off"),
          "reset until reviewed",
        );
        assertEquals(
          lastSync(ext).updates.updates,
          [],
          "the update it installed is no longer offered",
        );
        assert((await listTools(hub, PLUGIN)).every((tool) => tool.permission === "off"));
      },
    );

    await t.step("folder.open refuses a path that is not a local plugin's folder", async () => {
      const reply = await ext.request("folder.open", { path: join(root, COMMUNITY_PACKAGE) });
      assertEquals(reply.error?.code, -32602);
      assertMatch(reply.error.message, /^Refusing to open /);
    });

    await t.step(
      "plugin.remove uninstalls it; the extension is told to drop its adapter",
      async () => {
        const from = ext.received.length;
        const removed = await result(ext, "plugin.remove", { name: PLUGIN });
        assertEquals([removed.name, removed.uninstalled], [COMMUNITY_PACKAGE, true]);
        const uninstall = await ext.waitFor(
          (m) => m.method === "plugin.uninstall" && ext.received.indexOf(m) >= from,
        );
        assertEquals(uninstall.params, { plugin: PLUGIN });
        assertEquals(syncedPlugin(ext), undefined);
        const tools = await listTools(hub);
        assertEquals(tools.filter((tool) => tool.plugin === PLUGIN), [], "its tools are gone");
      },
    );

    await t.step(
      "plugin.removeBySpecifier removes a localPlugins entry longer than a package name",
      async () => {
        // A path longer than npm's 214-character name limit, as a real folder can be.
        const folder = join(work, "a".repeat(80), "b".repeat(80), "c".repeat(80), "plugin");
        await Deno.mkdir(folder, { recursive: true });
        assert(folder.length > 214);
        const config = await readConfig(configDir);
        await writeConfig(configDir, { ...config, localPlugins: [folder] });
        const removed = await result(ext, "plugin.removeBySpecifier", { specifier: folder });
        assertEquals([removed.uninstalled, removed.localPluginsRemoved], [false, [folder]]);
        assertEquals((await readConfig(configDir)).localPlugins, []);
        assert((await Deno.stat(folder)).isDirectory, "the folder stays");
        const long = await ext.request("plugin.removeBySpecifier", { specifier: "x".repeat(215) });
        assertEquals(long.error?.code, -32602, "a name longer than npm allows is still refused");
      },
    );

    await t.step("a registry that is down is an error reply with its code in data", async () => {
      await registry.down();
      for (
        const [method, params] of [["plugin.search", {}], ["plugin.install", { name: PLUGIN }]]
      ) {
        const reply = await ext.request(method as string, params);
        assertEquals(reply.error?.code, -32000, JSON.stringify(reply));
        assertEquals(reply.error.data, { code: "REGISTRY_UNREACHABLE" });
        assert(reply.error.message.length <= 600);
      }
      assertEquals((await api(hub, "GET", "/health")).status, 200, "the hub keeps serving");
    });
  } finally {
    await ext.close();
    const code = await hub.stop();
    await registry.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
    assertEquals(code, 0, hub.output());
  }
});
