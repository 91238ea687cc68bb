/**
 * `hub plugin search|install|update|configure|list|remove` end to end, against a real npm registry
 * on loopback (verdaccio) with test plugins published in two versions (tests/helpers/
 * plugin_packages.ts), and the real hub (main.ts) running with HUB_NPM_ROOT at a temp prefix's
 * global root: every command and flag, the shorthand's order (official first), install scripts not
 * run, a new plugin listed by the hub and off, the update flow resetting a reviewed permission,
 * concurrent installs, a package that is not a plugin, and a registry that is down.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { health, listTools, readConfig } from "./helpers/hub_api.ts";
import {
  exists,
  runHub,
  type RunningHub,
  type RunResult,
  startHub,
} from "./helpers/hub_process.ts";
import { globalRoot } from "./helpers/npm_install.ts";
import {
  BROKEN_PACKAGE,
  COMMUNITY_PACKAGE,
  DECOY_PACKAGE,
  FUTURE_SDK_PACKAGE,
  OFFICIAL_PACKAGE,
  publishTestPlugins,
  scriptsRan,
} from "./helpers/plugin_packages.ts";
import { startRegistry, type TestRegistry } from "./helpers/registry.ts";
import { createConfigStore } from "../core/config/config_store.ts";

/** Deno's cache, passed on explicitly because the registry's env gives children another HOME. */
function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

function assertOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  assertEquals(lines.length, 1, stderr);
  assertMatch(lines[0], /^error: /);
  assertMatch(lines[0], pattern);
}

interface Suite {
  registry: TestRegistry;
  work: string;
  configDir: string;
  /** The global root plugin packages are installed in (HUB_NPM_ROOT of the hub and the CLI). */
  root: string;
  /** The hub running from main.ts with that root. */
  live: RunningHub;
  stopHub(): Promise<number>;
  hub(args: string[]): Promise<RunResult>;
  /** `hub <args>`, which must exit 0. */
  ok(args: string[]): Promise<RunResult>;
  /** `hub <args>`, which must exit 1 with one error line matching `pattern`. */
  fails(args: string[], pattern: RegExp): Promise<RunResult>;
  /** The version of `name` installed in the root, if any. */
  installed(name: string): Promise<string | undefined>;
}

async function suite(
  registry: TestRegistry,
  work: string,
  started: (hub: RunningHub | undefined) => void,
): Promise<Suite> {
  const configDir = join(work, "config");
  const root = globalRoot(join(work, "prefix"));
  const env: Record<string, string> = registry.env({
    HUB_NPM_ROOT: root,
    HUB_SKIP_PKG_DISCOVERY: "",
    DENO_DIR: denoDir(),
  });
  await Deno.mkdir(root, { recursive: true });
  const live = await startHub({ configDir, env });
  started(live);
  env.HUB_PORT = String(live.port);
  const hub = (args: string[]) => runHub(args, { configDir, env, timeoutMs: 180_000 });
  return {
    registry,
    work,
    configDir,
    root,
    live,
    stopHub: async () => {
      started(undefined);
      return await live.stop();
    },
    hub,
    ok: async (args) => {
      const result = await hub(args);
      assertEquals(result.code, 0, `hub ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`);
      return result;
    },
    fails: async (args, pattern) => {
      const result = await hub(args);
      assertEquals(result.code, 1, `hub ${args.join(" ")} should fail:\n${result.stdout}`);
      assertOneLineError(result.stderr, pattern);
      return result;
    },
    installed: async (name) => {
      const path = join(root, name, "package.json");
      return (await exists(path)) ? (await readJson(path)).version as string : undefined;
    },
  };
}

Deno.test("hub plugin: search, install, configure, update, list and remove against a real registry", async (t) => {
  const registry = await startRegistry();
  const work = await Deno.makeTempDir({ prefix: "hub-plugin-packages-e2e-" });
  let running: RunningHub | undefined;
  try {
    const published = await publishTestPlugins(registry);
    console.log(`test plugins built and published in ${published.seconds.toFixed(1)} s`);
    const s = await suite(registry, work, (hub) => (running = hub));
    await t.step(
      "search lists every plugin package, official first; a query narrows it",
      () => search(s),
    );
    await t.step(
      "install alpha@1.0.0: the official package, no install script, listed off",
      () => installOfficial(s),
    );
    await t.step(
      "add beta --json: the community package; search marks what is installed",
      () => installCommunity(s),
    );
    await t.step(
      "configure --set checks each value, saves it, and the hub uses it",
      () => configure(s),
    );
    await t.step(
      "update: --check reports 1.1.0; the update resets the reviewed permission",
      () => update(s),
    );
    await t.step(
      "remove needs --confirm, then drops the package and its localPlugins entry",
      () => remove(s),
    );
    await t.step(
      "two installs of the same package at once both succeed, one after the other",
      () => concurrentInstalls(s),
    );
    await t.step(
      "a package that is not a plugin, or for another SDK, is refused and not installed",
      () => notAPlugin(s),
    );
    await t.step("with no hub running, list shows what the hub would load", () => offline(s));
    await t.step("a registry that is down is a one-line error and exit 1", () => registryDown(s));
  } finally {
    if (running) await running.stop();
    await registry.stop();
    await Deno.remove(work, { recursive: true });
  }
});

/** search lists every plugin package, official first; a query narrows it. */
async function search(s: Suite): Promise<void> {
  const { ok } = s;
  const all = JSON.parse((await ok(["plugin", "search", "--json"])).stdout);
  assertEquals(all.query, "");
  assertEquals(all.packages.map((p: { name: string }) => p.name), [
    OFFICIAL_PACKAGE,
    DECOY_PACKAGE,
    COMMUNITY_PACKAGE,
    BROKEN_PACKAGE,
    FUTURE_SDK_PACKAGE,
  ]);
  const alpha = all.packages[0];
  assertEquals([alpha.version, alpha.official, alpha.author], ["1.1.0", true, "hub tests"]);
  assertEquals(alpha.description, `Test plugin ${OFFICIAL_PACKAGE} 1.1.0`);
  assertEquals(all.packages[2].official, false);
  const text = (await ok(["plugin", "search", "beta"])).stdout;
  assertMatch(text, /^1 plugin package matching "beta":\nhub-plugin-beta\s+1\.1\.0/);
  assert(!text.includes("alpha"), text);
}

/** install alpha@1.0.0: the official package, no install script, listed off. */
async function installOfficial(s: Suite): Promise<void> {
  const { ok, installed, root, live } = s;
  const out = (await ok(["plugin", "install", "alpha@1.0.0"])).stdout;
  assertMatch(out, /^Installed @tabhub\/hub-plugin-alpha 1\.0\.0 \(plugin "alpha"\)\.$/m);
  assertMatch(out, /The hub running on port \d+ has reloaded\./);
  assertMatch(out, /hub config set plugin-permission\.alpha ask/);
  assertEquals(await installed(OFFICIAL_PACKAGE), "1.0.0");
  assertEquals(await installed(DECOY_PACKAGE), undefined, "the community alpha is not used");
  assertEquals(await scriptsRan(join(root, OFFICIAL_PACKAGE)), undefined);
  const detail = (await health(live)).pluginDetails.find((p) => p.name === "alpha");
  assertEquals(detail?.source, "npm");
  const tools = await listTools(live, "alpha");
  assert(tools.length > 0 && tools.every((tool) => tool.permission === "off"));
  const list = JSON.parse((await ok(["plugin", "list", "--json"])).stdout);
  assertEquals(list.hub.running, true);
  const listed = list.plugins.find((p: { name: string }) => p.name === "alpha");
  assertEquals(
    [listed.source, listed.permission, listed.version, listed.packageName, listed.loaded],
    ["npm", "off", "1.0.0", OFFICIAL_PACKAGE, true],
  );
}

/** add beta --json: the community package; search marks what is installed. */
async function installCommunity(s: Suite): Promise<void> {
  const { ok, root } = s;
  const result = JSON.parse((await ok(["plugin", "add", "beta", "--json"])).stdout);
  assertEquals(result, {
    name: COMMUNITY_PACKAGE,
    plugin: "beta",
    version: "1.1.0",
    urlPatterns: ["http://127.0.0.1/*", "http://localhost/*"],
  });
  assertEquals(await scriptsRan(join(root, COMMUNITY_PACKAGE)), undefined);
  const found = JSON.parse((await ok(["plugin", "search", "alpha", "--json"])).stdout);
  const official = found.packages.find((p: { name: string }) => p.name === OFFICIAL_PACKAGE);
  assertEquals(official.installedVersion, "1.0.0");
  const text = (await ok(["plugin", "ls", "-v"])).stdout;
  assertMatch(text, /^Plugins of the hub running on port \d+:/);
  assertMatch(
    text,
    /^ {2}alpha\s+1\.0\.0\s+npm\s+off\s+\d+ tools\s+@tabhub\/hub-plugin-alpha$/m,
  );
  assertMatch(text, /^ {2}beta\s+1\.1\.0\s+npm\s+off/m);
  assertMatch(text, new RegExp(`folder: ${root}/hub-plugin-beta`));
  assertMatch(text, /tools: {2}beta__echo, /);
}

/** configure --set checks each value, saves it, and the hub uses it. */
async function configure(s: Suite): Promise<void> {
  const { ok, fails, configDir, live } = s;
  await ok([
    "plugin",
    "configure",
    "alpha",
    "--set",
    "instances=work=http://127.0.0.1:1/, home=http://127.0.0.1:2/",
    "--set",
    "mode=thorough",
    "--set",
    "verbose=yes",
    "--set",
    "pageSize=5",
  ]);
  assertEquals((await readConfig(configDir)).settings.alpha, {
    instances: { work: "http://127.0.0.1:1/", home: "http://127.0.0.1:2/" },
    mode: "thorough",
    verbose: true,
    pageSize: 5,
  });
  const echo = (await listTools(live, "alpha")).find((tool) => tool.name === "alpha__echo");
  assertEquals(echo?.inputSchema.properties.instance.enum, ["work", "home"]);
  await fails(["plugin", "configure", "alpha", "--set", "pageSize=500"], /at most 100/);
  await fails(["plugin", "configure", "alpha", "--set", "color=red"], /not a setting/);
  await fails(["plugin", "configure", "alpha"], /No terminal to ask on: .*--set key=value/);
  await fails(["plugin", "configure", "gamma", "--set", "a=1"], /No plugin "gamma"/);
}

/** update: --check reports 1.1.0; the update resets the reviewed permission. */
async function update(s: Suite): Promise<void> {
  const { ok, installed, configDir, live } = s;
  await ok(["config", "set", "plugin-permission.alpha", "auto"]);
  assertEquals((await readConfig(configDir)).permissions.alpha.reviewedVersion, "1.0.0");
  const one = (await ok(["plugin", "update", "alpha", "--check"])).stdout;
  assertMatch(one, /1 update available:\n {2}alpha\s+1\.0\.0 -> 1\.1\.0/);
  assertEquals(await installed(OFFICIAL_PACKAGE), "1.0.0", "--check installs nothing");
  const check = (await ok(["plugin", "update", "--check"])).stdout;
  assertMatch(check, /1 update available:\n {2}alpha\s+1\.0\.0 -> 1\.1\.0/);
  const json = JSON.parse((await ok(["plugin", "update", "--json"])).stdout);
  assertEquals(json.updates, [{
    name: OFFICIAL_PACKAGE,
    plugin: "alpha",
    installedVersion: "1.0.0",
    latestVersion: "1.1.0",
  }]);
  const out = (await ok(["plugin", "update", "alpha"])).stdout;
  assertMatch(out, /Installed @tabhub\/hub-plugin-alpha 1\.1\.0 .*replacing 1\.0\.0/);
  assertMatch(out, /stays off until it is reviewed/);
  assertEquals(await installed(OFFICIAL_PACKAGE), "1.1.0");
  const permission = (await readConfig(configDir)).permissions.alpha;
  assertEquals([permission.permission, permission.reviewedVersion], ["off", "1.0.0"]);
  assert((await listTools(live, "alpha")).every((tool) => tool.permission === "off"));
  const again = (await ok(["plugin", "update", "alpha"])).stdout;
  assertMatch(again, /1\.1\.0 is the latest version; nothing to update/);
  assertMatch((await ok(["plugin", "update"])).stdout, /up to date/);
}

/** remove needs --confirm, then drops the package and its localPlugins entry. */
async function remove(s: Suite): Promise<void> {
  const { ok, fails, installed, root, configDir, live, work } = s;
  const copy = join(work, "beta-local");
  await Deno.mkdir(copy);
  await Deno.copyFile(
    join(root, COMMUNITY_PACKAGE, "package.json"),
    join(copy, "package.json"),
  );
  await createConfigStore(join(configDir, "config.json")).update((c) => {
    c.localPlugins.push(copy);
  });
  const refused = await fails(
    ["plugin", "remove", "beta"],
    /This removes the package hub-plugin-beta 1\.1\.0 .* and the localPlugins entry .*beta-local\. Nothing was changed; run "hub plugin remove beta --confirm"/,
  );
  assertEquals(refused.stdout, "");
  assertEquals(await installed(COMMUNITY_PACKAGE), "1.1.0");
  const out = (await ok(["plugin", "rm", "beta", "-y"])).stdout;
  assertMatch(
    out,
    new RegExp(`^Uninstalled hub-plugin-beta; removed ${copy} from localPlugins`),
  );
  assertEquals(await installed(COMMUNITY_PACKAGE), undefined);
  assertEquals((await readConfig(configDir)).localPlugins, []);
  assertEquals((await health(live)).pluginDetails.map((p) => p.name), ["alpha"]);
  await fails(
    ["plugin", "remove", "beta", "--confirm"],
    /"beta" is neither a plugin package/,
  );
}

/** two installs of the same package at once both succeed, one after the other. */
async function concurrentInstalls(s: Suite): Promise<void> {
  const { hub, root, live } = s;
  const both = await Promise.all([
    hub(["plugin", "install", COMMUNITY_PACKAGE, "--json"]),
    hub(["plugin", "install", COMMUNITY_PACKAGE, "--json"]),
  ]);
  for (const result of both) {
    assertEquals(result.code, 0, result.stderr);
    assertEquals(JSON.parse(result.stdout).version, "1.1.0");
  }
  const versions = both.map((r: RunResult) => JSON.parse(r.stdout).previousVersion).sort();
  assertEquals(
    versions,
    ["1.1.0", undefined],
    "the second one found the first one's install",
  );
  const dir = join(root, COMMUNITY_PACKAGE);
  assertEquals((await readJson(join(dir, "dist", "tools.json"))).version, "1.1.0");
  assert(await exists(join(dir, "dist", "adapter.iife.js")));
  assertEquals(await scriptsRan(dir), undefined);
  assert((await health(live)).pluginDetails.some((p) => p.name === "beta"));
}

/** a package that is not a plugin, or for another SDK, is refused and not installed. */
async function notAPlugin(s: Suite): Promise<void> {
  const { ok, fails, root } = s;
  await fails(
    ["plugin", "install", "broken"],
    /hub-plugin-broken@1\.0\.0 is not a hub plugin: package\.json has no "hub" field.*Nothing was installed/,
  );
  assertEquals(await exists(join(root, BROKEN_PACKAGE)), false);
  await fails(["plugin", "install", FUTURE_SDK_PACKAGE], /built with plugin SDK 99\.0\.0/);
  assertEquals(await exists(join(root, FUTURE_SDK_PACKAGE)), false);
  await fails(
    ["plugin", "install", "nothere"],
    /neither @tabhub\/hub-plugin-nothere nor hub-plugin-nothere is published/,
  );
  await fails(["plugin", "install", "../alpha"], /looks like a path or URL/);
  await fails(["plugin", "install", "@acme/tool"], /did you mean "@acme\/hub-plugin-tool"/);
  await fails(["plugin", "install", "Alpha"], /package names are lowercase/);
  assertEquals((await ok(["plugin", "ls", "--json"])).stdout.includes("broken"), false);
  const removed = JSON.parse((await ok(["plugin", "rm", "beta", "-y", "--json"])).stdout);
  assertEquals(removed, {
    name: COMMUNITY_PACKAGE,
    uninstalled: true,
    localPluginsRemoved: [],
  });
}

/** with no hub running, list shows what the hub would load. */
async function offline(s: Suite): Promise<void> {
  const { ok, installed } = s;
  assertEquals(await s.stopHub(), 0);
  const list = JSON.parse((await ok(["plugin", "list", "--json"])).stdout);
  assertEquals(list.hub.running, false);
  const rows = list.plugins.map((
    p: Record<string, unknown>,
  ) => [p.name, p.version, p.source, p.permission, p.loaded]);
  assertEquals(rows, [["alpha", "1.1.0", "npm", "off", false]]);
  assertMatch(
    (await ok(["plugin", "ls"])).stdout,
    /^No hub is running on port \d+; the plugins/,
  );
  const older = (await ok(["plugin", "install", `${COMMUNITY_PACKAGE}@1.0.0`])).stdout;
  assertMatch(
    older,
    /^Installed hub-plugin-beta 1\.0\.0 \(plugin "beta"\)\.$/m,
  );
  assertMatch(older, /No hub is running; "hub start" loads the plugin\./);
  assertEquals(await installed(COMMUNITY_PACKAGE), "1.0.0");
}

/** a registry that is down is a one-line error and exit 1. */
async function registryDown(s: Suite): Promise<void> {
  const { fails, installed, registry } = s;
  await registry.down();
  const down = new RegExp(`Cannot reach the npm registry ${registry.url} .*\\(ECONNREFUSED\\)`);
  await fails(["plugin", "search"], down);
  await fails(["plugin", "install", "gamma"], down);
  await fails(["plugin", "update", "--check"], down);
  await fails(["plugin", "update", "alpha"], down);
  assertEquals(await installed(OFFICIAL_PACKAGE), "1.1.0");
}
