/**
 * End to end: how a running hub finds plugins. Global packages under a fake npm prefix (and
 * HUB_SKIP_PKG_DISCOVERY), `npm link` symlinks, `localPluginDirs`, local folders overriding
 * packages, and every kind of broken plugin or path reported with its fix while good plugins
 * still load, including the allowed roots and `additionalAllowedDirectories`.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { withTempDir } from "./helpers/hub_process.ts";
import { api, health, withHub, writeConfig } from "./helpers/hub_api.ts";
import { writePluginFolder } from "./helpers/plugin_cli.ts";
import type { HealthPayload } from "../protocol/health.ts";

/** Deno's cache, passed on explicitly when a test gives the hub another HOME. */
function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

function failure(h: HealthPayload, path: string): string {
  const found = h.failedPlugins.find((f) => f.path === path);
  assert(found, `${path} is in failedPlugins: ${JSON.stringify(h.failedPlugins, null, 1)}`);
  return found.error;
}

Deno.test("discovery: global packages under the npm prefix, skipped on request, local overrides", async () => {
  await withTempDir(async (root) => {
    const modules = join(root, "prefix", "lib", "node_modules");
    await writePluginFolder(join(modules, "hub-plugin-alpha"), { name: "alpha" });
    await writePluginFolder(join(modules, "@acme", "hub-plugin-beta"), {
      name: "beta",
      packageName: "@acme/hub-plugin-beta",
      tools: ["one", "two"],
    });
    // `npm link` puts a symlink to the author's folder into the global node_modules.
    await writePluginFolder(join(root, "dev", "linked"), { name: "linked" });
    await Deno.symlink(join(root, "dev", "linked"), join(modules, "hub-plugin-linked"));
    // Not plugins: other packages, with or without a package.json.
    await Deno.mkdir(join(modules, "left-pad"), { recursive: true });
    await Deno.writeTextFile(
      join(modules, "left-pad", "package.json"),
      '{"name":"left-pad","version":"1.0.0"}',
    );
    await Deno.mkdir(join(modules, "@acme", "tools"), { recursive: true });
    await Deno.writeTextFile(join(modules, "hub-plugin-notes.txt"), "a file, not a package");

    const configDir = join(root, "config");
    // Both spellings: under `npx` (as in CI) npm_config_prefix is set and wins over the upper case.
    const prefix = join(root, "prefix");
    const npm = {
      NPM_CONFIG_PREFIX: prefix,
      npm_config_prefix: prefix,
      HUB_SKIP_PKG_DISCOVERY: "",
    };
    await withHub({ configDir, env: npm }, async (hub) => {
      let h = await health(hub);
      assertEquals(h.discoveryErrors, []);
      assertEquals(h.failedPlugins, []);
      assertEquals(h.pluginDetails.map((p) => [p.name, p.source, p.tools]), [
        ["alpha", "npm", ["alpha__ping"]],
        ["beta", "npm", ["beta__one", "beta__two"]],
        ["linked", "npm", ["linked__ping"]],
      ]);
      assertEquals(h.pluginToolCount, 4);

      // A local plugin named like a package replaces it.
      const local = await writePluginFolder(join(root, "local-alpha"), {
        name: "alpha",
        version: "2.0.0",
        tools: ["local_only"],
      });
      // localPluginDirs: only the children that hold a plugin count.
      const parent = join(root, "dirs");
      await writePluginFolder(join(parent, "gamma"), { name: "gamma" });
      await Deno.mkdir(join(parent, "notes"));
      await Deno.mkdir(join(parent, "app"));
      await Deno.writeTextFile(join(parent, "app", "package.json"), '{"name":"app"}');
      await writeConfig(configDir, { localPlugins: [local], localPluginDirs: [parent] });
      assertEquals((await api(hub, "POST", "/reload")).status, 200);
      h = await health(hub);
      assertEquals(h.pluginDetails.map((p) => [p.name, p.source, p.tools]), [
        ["alpha", "local", ["alpha__local_only"]],
        ["beta", "npm", ["beta__one", "beta__two"]],
        ["gamma", "local", ["gamma__ping"]],
        ["linked", "npm", ["linked__ping"]],
      ]);
      assertEquals(h.discoveryErrors, []);
      assertEquals(h.failedPlugins, [], "the overridden package is not a failure");
    });

    await withHub({
      configDir: join(root, "config2"),
      env: { ...npm, HUB_SKIP_PKG_DISCOVERY: "1" },
    }, async (hub) => {
      const h = await health(hub);
      assertEquals([h.plugins, h.pluginDetails, h.discoveryErrors], [0, [], []]);
    });
  });
});

Deno.test("broken plugins are reported with their fix; good ones still load", async () => {
  await withTempDir(async (root) => {
    // Predictable allowed roots: HOME, TMPDIR and the hub's cwd are all inside `root`.
    const home = join(root, "home");
    const cwd = join(root, "cwd");
    const tmp = join(root, "tmp");
    for (const d of [home, cwd, tmp]) await Deno.mkdir(d, { recursive: true });
    const p = (name: string) => join(home, "plugins", name);
    await writePluginFolder(p("good"), { name: "good" });
    await writePluginFolder(p("no-tools"), { name: "no-tools", withTools: false });
    await writePluginFolder(p("broken-json"), {
      name: "broken",
      packageJsonText: '{ "name": "hub-plugin-broken", "version": "1.0.0", "hub": {',
    });
    await writePluginFolder(p("stale"), {
      name: "stale",
      version: "1.1.0",
      toolsFile: { version: "1.0.0" },
    });
    await writePluginFolder(p("no-adapter"), { name: "no-adapter", withAdapter: false });
    await writePluginFolder(p("future"), { name: "future", toolsFile: { sdkVersion: "9.0.0" } });
    await writePluginFolder(p("dup-a"), { name: "twin", tools: ["from_a"] });
    await writePluginFolder(p("dup-b"), { name: "twin", tools: ["from_b"] });
    const far = await writePluginFolder(join(root, "outside", "far"), { name: "far" });
    // Relative entries resolve against the config dir, `~/` against HOME.
    await writePluginFolder(p("rel"), { name: "rel" });
    await writePluginFolder(p("tilde"), { name: "tilde" });
    const names = [
      "good",
      "no-tools",
      "broken-json",
      "stale",
      "no-adapter",
      "future",
      "dup-a",
      "dup-b",
    ];
    const configDir = join(root, "config");
    const localPlugins = [
      ...names.map(p),
      "../home/plugins/rel",
      "~/plugins/tilde",
      p("missing"),
      far,
    ];
    await writeConfig(configDir, { localPlugins });

    // PATH without npm: package discovery fails, and says how to skip it.
    const noNpm = join(root, "bin");
    await Deno.mkdir(noNpm);
    const env = {
      HOME: home,
      TMPDIR: tmp,
      DENO_DIR: denoDir(),
      PATH: noNpm,
      HUB_SKIP_PKG_DISCOVERY: "",
    };
    await withHub({ configDir, cwd, env }, async (hub) => {
      let h = await health(hub);
      // Two folders claiming "twin" are both refused: neither takes the other's name.
      assertEquals(h.pluginDetails.map((d) => d.name), ["good", "rel", "tilde"]);
      assertEquals(h.plugins, 3);
      const build = /build it again \("deno task build" or "hub-plugin build" in /;
      assertMatch(
        failure(h, p("no-tools")),
        /dist\/tools\.json is missing: the plugin was never built/,
      );
      assertMatch(failure(h, p("no-tools")), build);
      assertMatch(
        failure(h, p("broken-json")),
        /broken-json\/package\.json is not valid JSON at line 1, column \d+/,
      );
      assertMatch(
        failure(h, p("stale")),
        /built for stale 1\.0\.0, but package\.json says stale 1\.1\.0; build it again/,
      );
      assertMatch(
        failure(h, p("no-adapter")),
        /dist\/adapter\.iife\.js is missing; build it again/,
      );
      assertMatch(failure(h, p("future")), /plugin SDK 9\.0\.0, but this hub speaks SDK /);
      assertMatch(failure(h, p("future")), build);
      for (const dup of [p("dup-a"), p("dup-b")]) {
        assertMatch(failure(h, dup), /^Plugin name "twin" is claimed by 2 sources: /);
        assert(failure(h, dup).includes(`folder ${p("dup-a")}`), failure(h, dup));
        assert(failure(h, dup).includes(`folder ${p("dup-b")}`), failure(h, dup));
      }
      assertEquals(h.failedPlugins.length, 7, JSON.stringify(h.failedPlugins, null, 1));

      assertEquals(h.discoveryErrors.map((e) => [e.source, e.specifier]), [
        ["npm", "npm root -g"],
        ["local", p("missing")],
        ["local", far],
      ]);
      assertMatch(h.discoveryErrors[0].error, /npm is not installed.*HUB_SKIP_PKG_DISCOVERY=1/);
      h.discoveryErrors.shift();
      assertMatch(
        h.discoveryErrors[0].error,
        /is not a folder\. Fix the path, or remove it with "hub config set localPlugins\.remove /,
      );
      assertMatch(
        h.discoveryErrors[1].error,
        /is outside the folders hub loads local plugins from/,
      );
      assertMatch(
        h.discoveryErrors[1].error,
        /add its parent folder to "additionalAllowedDirectories"/,
      );

      // Following the advice: allow the outside folder's parent, then reload.
      await writeConfig(configDir, {
        localPlugins,
        additionalAllowedDirectories: [join(root, "outside")],
      });
      const reload = await api(hub, "POST", "/reload");
      assertEquals(reload.status, 200, JSON.stringify(reload.body));
      assertEquals(reload.body.plugins, 4);
      h = await health(hub);
      assertEquals(h.pluginDetails.map((d) => d.name), ["far", "good", "rel", "tilde"]);
      assert(h.pluginDetails.every((d) => d.source === "local"));
      assertEquals(h.discoveryErrors.map((e) => e.specifier), ["npm root -g", p("missing")]);
      assertEquals(h.failedPlugins.length, 7);
    });
  });
});
