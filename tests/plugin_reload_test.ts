/**
 * End to end: `POST /reload` (its answer, reloadCount, concurrent requests sharing runs, a reload
 * seeing config changed just before it, adapter files under extension/adapters) and
 * `POST /plugin-settings` (validation, storage, and the injected `instance` parameter).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { withTempDir } from "./helpers/hub_process.ts";
import {
  api,
  health,
  type ListedTool,
  listTools,
  readConfig,
  withHub,
  writeConfig,
} from "./helpers/hub_api.ts";
import { writePluginFolder } from "./helpers/plugin_cli.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";

/**
 * Hub env with a stand-in `npm` that answers `npm root -g` after 300 ms with an error. A failure
 * is not cached, so every reload run asks again and lasts over 300 ms.
 */
async function slowNpm(root: string): Promise<Record<string, string>> {
  const bin = join(root, "bin");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(
    join(bin, "npm"),
    '#!/bin/sh\nsleep 0.3\necho "stand-in npm: offline" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return { PATH: `${bin}:${Deno.env.get("PATH")}`, HUB_SKIP_PKG_DISCOVERY: "" };
}

async function adapterFiles(configDir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(configDir, "extension", "adapters"))) names.push(e.name);
  return names.sort();
}

Deno.test("POST /reload: answers with counts, concurrent calls share a run, adapters follow", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const a = await writePluginFolder(join(root, "a"), { name: "aa" });
    const b = await writePluginFolder(join(root, "b"), { name: "bb" });
    await writeConfig(configDir, { localPlugins: [a, b] });
    // Each run lasts over 300 ms (slowNpm): long enough for concurrent requests to overlap.
    await withHub({ configDir, env: await slowNpm(root) }, async (hub) => {
      const start = await health(hub);
      assertEquals(
        [start.reloadCount, start.lastReloadTimestamp],
        [0, 0],
        "startup is not a reload",
      );
      let files = await adapterFiles(configDir);
      assertEquals(files.length, 2, files.join(", "));
      assertMatch(files[0], /^aa-[0-9a-f]{16}\.js$/);
      assertMatch(files[1], /^bb-[0-9a-f]{16}\.js$/);
      assertEquals(
        await Deno.readTextFile(join(configDir, "extension", "adapters", files[0])),
        await Deno.readTextFile(join(a, "dist", "adapter.iife.js")),
      );

      const one = await api(hub, "POST", "/reload");
      assertEquals(one.status, 200);
      assertEquals(Object.keys(one.body).sort(), ["durationMs", "ok", "plugins"]);
      assertEquals([one.body.ok, one.body.plugins], [true, 2]);
      assert(
        Number.isInteger(one.body.durationMs) && one.body.durationMs >= 0,
        one.body.durationMs,
      );
      const afterOne = await health(hub);
      assertEquals(afterOne.reloadCount, 1);
      assert(afterOne.lastReloadTimestamp > 0);
      assert(afterOne.lastReloadDurationMs >= 300, `${afterOne.lastReloadDurationMs} ms`);
      assertMatch(afterOne.discoveryErrors[0]?.error ?? "", /stand-in npm: offline/);

      const replies = await Promise.all([1, 2, 3].map(() => api(hub, "POST", "/reload")));
      for (const r of replies) assertEquals([r.status, r.body.ok, r.body.plugins], [200, true, 2]);
      const grew = (await health(hub)).reloadCount - afterOne.reloadCount;
      // The three requests arrive within a few ms while the first one's run lasts over 300 ms,
      // so they share runs instead of running three times. Today they all share the first run
      // (+1); a hub that gives requests arriving mid-run one shared follow-up run (see the next
      // test) counts +2. Three separate runs would mean no sharing at all.
      assert(grew === 1 || grew === 2, `reloadCount grew by ${grew} for three concurrent reloads`);

      // A removed plugin's adapter is deleted; a changed adapter gets a new file name.
      await Deno.writeTextFile(join(a, "dist", "adapter.iife.js"), "/* aa, rebuilt */\n");
      await writeConfig(configDir, { localPlugins: [a] });
      const last = await api(hub, "POST", "/reload");
      assertEquals([last.status, last.body.plugins], [200, 1]);
      files = await adapterFiles(configDir);
      assertEquals(files.length, 1, files.join(", "));
      assertMatch(files[0], /^aa-[0-9a-f]{16}\.js$/);
      assertEquals(
        await Deno.readTextFile(join(configDir, "extension", "adapters", files[0])),
        "/* aa, rebuilt */\n",
      );
    });
  });
});

Deno.test("POST /reload after a config change sees the change while another reload runs", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const late = await writePluginFolder(join(root, "late"), { name: "late" });
    await writeConfig(configDir, { localPlugins: [] });
    await withHub({ configDir, env: await slowNpm(root) }, async (hub) => {
      // A reload (say, another plugin's build) is in flight and has read the old config...
      const earlier = api(hub, "POST", "/reload");
      await new Promise((r) => setTimeout(r, 100));
      // ...when the user adds a plugin and asks for a reload, as `hub-plugin build` does.
      await writeConfig(configDir, { localPlugins: [late] });
      const mine = await api(hub, "POST", "/reload");
      assertEquals((await earlier).status, 200);
      assertEquals(mine.status, 200);
      const loaded = (await health(hub)).pluginDetails.map((d) => d.name);
      assertEquals(
        [mine.body.plugins, loaded],
        [1, ["late"]],
        "a reload requested after the change must load the new plugin, not reuse a run that " +
          "read the config before the change",
      );
    });
  });
});

const SETTINGS_SCHEMA = {
  instances: { type: "url", label: "Instances" },
  mode: { type: "select", label: "Mode", options: ["fast", "thorough"], default: "fast" },
  pageSize: { type: "number", label: "Page size", min: 1, max: 100, integer: true },
};

function instanceOf(tool: ListedTool) {
  return tool.inputSchema.properties.instance;
}

Deno.test("POST /plugin-settings validates, stores, and drives the instance parameter", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const multi = await writePluginFolder(join(root, "multi"), {
      name: "multi",
      tools: ["read", "write"],
      hub: { configSchema: SETTINGS_SCHEMA },
    });
    const plain = await writePluginFolder(join(root, "plain"), { name: "plain" });
    await writeConfig(configDir, { localPlugins: [multi, plain] });
    await withHub({ configDir }, async (hub) => {
      const post = (body: unknown) => api(hub, "POST", "/plugin-settings", body);
      const notJson = await post("{nope");
      assertEquals([notJson.status, notJson.body.error.code], [400, "INVALID_JSON"]);
      const noSettings = await post({ plugin: "multi" });
      assertEquals([noSettings.status, noSettings.body.error.code], [400, "INVALID_REQUEST"]);
      assertMatch(noSettings.body.error.message, /"plugin".*"settings"/);
      const unknown = await post({ plugin: "nope", settings: {} });
      assertEquals([unknown.status, unknown.body.error.code], [404, "PLUGIN_NOT_FOUND"]);
      assertMatch(unknown.body.error.message, /"nope".*multi, plain/);

      const invalid: [Record<string, unknown>, RegExp][] = [
        [{ mode: "slow" }, /mode: must be one of "fast", "thorough"/],
        [{ pageSize: 0 }, /pageSize: must be at least 1/],
        [{ instances: { work: "ftp://files.example.com" } }, /instances: instance "work": .*http/],
        [{ colour: "red" }, /colour: not a setting of this plugin/],
      ];
      for (const [settings, message] of invalid) {
        const r = await post({ plugin: "multi", settings });
        assertEquals(
          [r.status, r.body.error.code],
          [400, "INVALID_SETTINGS"],
          JSON.stringify(settings),
        );
        assertMatch(r.body.error.message, message);
      }
      assertEquals(
        (await readConfig(configDir)).settings?.multi,
        undefined,
        "nothing stored from invalid input",
      );

      const two = {
        instances: { work: "https://work.example.com", home: "https://home.example.com" },
        mode: "thorough",
        pageSize: 50,
      };
      const saved = await post({ plugin: "multi", settings: two });
      assertEquals(saved.status, 200, JSON.stringify(saved.body));
      assertEquals(saved.body.ok, true);
      assertEquals((await readConfig(configDir)).settings, { multi: two });
      const tools = await listTools(hub, "multi");
      assertEquals(tools.map((t) => t.name), ["multi__read", "multi__write"]);
      for (const tool of tools) {
        assertEquals(instanceOf(tool)?.type, "string");
        assertEquals(instanceOf(tool)?.enum, ["work", "home"]);
        assert(tool.inputSchema.required?.includes("instance"), JSON.stringify(tool.inputSchema));
        assert(tool.inputSchema.properties.tabId, "tabId is still injected");
      }
      const plainTools = await listTools(hub, "plain");
      assertEquals(plainTools.map((t) => t.name), ["plain__ping"]);
      assert(!instanceOf(plainTools[0]), "other plugins get no instance parameter");

      const one = await post({
        plugin: "multi",
        settings: { instances: { work: "https://work.example.com" } },
      });
      assertEquals(one.status, 200, JSON.stringify(one.body));
      for (const tool of await listTools(hub, "multi")) {
        assert(!instanceOf(tool), `one instance: no instance parameter (${tool.name})`);
        assert(!(tool.inputSchema.required ?? []).includes("instance"));
        assertEquals(tool.inputSchema.required, ["text"]);
      }

      const all = await listTools(hub);
      const pluginTools = all.filter((t) => t.plugin !== "browser" && t.plugin !== "hub");
      assertEquals(pluginTools.map((t) => t.name).sort(), [
        "multi__read",
        "multi__write",
        "plain__ping",
      ]);
      const nope = await api(hub, "GET", "/tools?plugin=nope");
      assertEquals([nope.status, nope.body.error.code], [404, "PLUGIN_NOT_FOUND"]);
    });
  });
});

Deno.test("a reload that removes a plugin tells the extension to drop its adapter", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const a = await writePluginFolder(join(root, "a"), { name: "aa" });
    const b = await writePluginFolder(join(root, "b"), { name: "bb" });
    await writeConfig(configDir, { localPlugins: [a, b] });
    await withHub({ configDir }, async (hub) => {
      const ext = await FakeExtension.connect(hub.port, hub.secret);
      try {
        await ext.waitFor((m) => m.method === "sync.full");
        await writeConfig(configDir, { localPlugins: [a] });
        assertEquals((await api(hub, "POST", "/reload")).status, 200);
        const uninstall = await ext.waitFor((m) => m.method === "plugin.uninstall");
        assertEquals(uninstall.params, { plugin: "bb" });
        assert(uninstall.id !== undefined, "plugin.uninstall is a request");
        // A reload that removes nothing sends none.
        const changes = () => ext.received.filter((m) => m.method === "plugins.changed").length;
        const before = changes();
        assertEquals((await api(hub, "POST", "/reload")).status, 200);
        await ext.waitFor(() => changes() > before);
        const sent = ext.received.filter((m) => m.method === "plugin.uninstall");
        assertEquals(sent.length, 1);
      } finally {
        await ext.close();
      }
    });
  });
});
