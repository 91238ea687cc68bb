import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import type { LiveFile } from "../../core/files/live_file.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { HubFiles } from "../files/hub_files_interface.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import type { PluginHost, PluginReload } from "../plugins/plugin_host_interface.ts";
import { registryOf } from "../plugins/registry.ts";
import type { RegisteredPlugin } from "../plugins/registry_interface.ts";
import { registeredPlugin } from "../plugins/_test_registry.ts";
import { createPluginLifecycle } from "./plugin_lifecycle.ts";

interface Options {
  /** The plugins before and after a reload. */
  before?: RegisteredPlugin[];
  after?: RegisteredPlugin[];
  config?: HubConfig;
  connected?: boolean;
  /** auth.json cannot be read on reload. */
  brokenSecret?: boolean;
  /** What the host's single-plugin reload answers; "reloaded" swaps in `after`. */
  one?: PluginReload;
  /** Names several sources claim (the host refused them all). */
  contested?: string[];
}

/** A lifecycle over fakes; `events` records what it did, in order. */
function setup(options: Options = {}) {
  let config = options.config ?? defaultConfig();
  let registry = registryOf(options.before ?? []);
  const events: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const plugins = {
    load: () => Promise.resolve({ plugins: registry.plugins.length, durationMs: 1 }),
    reload() {
      registry = registryOf(options.after ?? options.before ?? []);
      events.push("reload");
      return Promise.resolve({ plugins: registry.plugins.length, durationMs: 2 });
    },
    reloadPlugin(dir: string) {
      events.push(`reload one ${dir}`);
      if (options.one?.kind === "reloaded") registry = registryOf(options.after ?? []);
      return Promise.resolve(options.one);
    },
    registry: () => registry,
    contested: () => options.contested ?? [],
  } as unknown as PluginHost;
  const liveConfig: LiveFile<HubConfig> = { get: () => config, refresh: () => config };
  const secret: LiveFile<string> = {
    get: () => "s",
    refresh: () => {
      if (options.brokenSecret) throw new Error("auth.json does not exist");
      return "s";
    },
  };
  const store = {
    update(mutate: (c: HubConfig) => void) {
      const next = structuredClone(config);
      mutate(next);
      config = next;
      events.push("write");
      return Promise.resolve(next);
    },
  } as unknown as ConfigStore;
  const logger = {
    debug() {},
    info() {},
    warn: (m: string) => warnings.push(m),
    error: (m: string) => errors.push(m),
  } as Logger;
  const lifecycle = createPluginLifecycle({
    plugins,
    files: { config: liveConfig, secret, store } as HubFiles,
    link: {
      isConnected: () => options.connected ?? true,
      request(method, params) {
        events.push(`${method} ${JSON.stringify(params)}`);
        return Promise.resolve(null);
      },
      notify(method, params) {
        events.push(`${method} ${JSON.stringify(params)}`);
        return true;
      },
    },
    door: { closeIfSecretRotated: () => events.push("secret check") },
    changes: {
      announce: (reason) => events.push(`announce ${reason}`),
      state: () => ({ plugins: registry.plugins.map((p) => ({ name: p.name })) }) as never,
    },
    logger,
  });
  return { lifecycle, events, warnings, errors, config: () => config };
}

/** demo at 2.0.0, with grants made when 1.0.0 was reviewed. */
function grantedAtOldVersion(): Options {
  const config = defaultConfig();
  config.permissions.demo = { permission: "auto", tools: { a: "ask" }, reviewedVersion: "1.0.0" };
  return { config, before: [registeredPlugin("demo", { version: "2.0.0" })] };
}

Deno.test("start: a plugin whose version changed since its review is turned off, with a warning", async () => {
  const s = setup(grantedAtOldVersion());
  assertEquals(await s.lifecycle.start(), { plugins: 1, durationMs: 1 });
  assertEquals(s.config().permissions.demo, {
    permission: "off",
    tools: {},
    reviewedVersion: "1.0.0",
  });
  assertEquals(s.warnings.length, 1);
  assertMatch(s.warnings[0], /Plugin "demo" changed from version 1\.0\.0 to 2\.0\.0/);
});

Deno.test("start: a grant reviewed for another source is taken back, with a warning naming both", async () => {
  const config = defaultConfig();
  config.permissions.jira = {
    permission: "auto",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: "npm:@tabhub/hub-plugin-jira",
  };
  const impostor = registeredPlugin("jira", {
    source: "npm",
    dir: "/npm/lib/node_modules/@aaa/hub-plugin-jira-helper",
  });
  const s = setup({ config, before: [impostor] });
  await s.lifecycle.start();
  assertEquals(s.config().permissions.jira.permission, "off");
  assertEquals(s.config().permissions.jira.reviewedSource, "npm:@tabhub/hub-plugin-jira");
  assertEquals(s.warnings, [
    'Plugin "jira" was reviewed from the package @tabhub/hub-plugin-jira, but it is now served ' +
    "by the package @aaa/hub-plugin-jira-helper: its permissions are off until it is reviewed " +
    "again (plugin_inspect, plugin_mark_reviewed) and turned on.",
  ]);
});

Deno.test("start: a legacy grant on a name two sources claim is taken back", async () => {
  const config = defaultConfig();
  config.permissions.jira = { permission: "auto", tools: {}, reviewedVersion: "1.0.0" };
  const s = setup({ config, before: [], contested: ["jira"] });
  await s.lifecycle.start();
  assertEquals(s.config().permissions.jira.permission, "off");
  assertMatch(s.warnings[0], /an unrecorded source, but several sources claim its name/);
});

Deno.test("start with nothing to enforce writes nothing", async () => {
  const s = setup({ before: [registeredPlugin("demo")] });
  await s.lifecycle.start();
  assertEquals(s.events, []);
});

Deno.test("a reload swaps plugins, removes the gone ones' adapters, checks the secret, announces", async () => {
  const s = setup({
    before: [registeredPlugin("demo"), registeredPlugin("gone")],
    after: [registeredPlugin("demo")],
  });
  assertEquals(await s.lifecycle.reload(), { plugins: 1, durationMs: 2 });
  assertEquals(s.events, [
    "reload",
    'plugin.uninstall {"plugin":"gone"}',
    "secret check",
    "announce reload",
  ]);
});

Deno.test("without an extension a reload asks nothing of it (sync.full on connect tells it)", async () => {
  const s = setup({ before: [registeredPlugin("gone")], after: [], connected: false });
  await s.lifecycle.reload();
  assertEquals(s.events, ["reload", "secret check", "announce reload"]);
});

Deno.test("a reload enforces reviews too", async () => {
  const s = setup(grantedAtOldVersion());
  await s.lifecycle.reload();
  assertEquals(s.events, ["reload", "write", "secret check", "announce reload"]);
  assertEquals(s.config().permissions.demo.permission, "off");
});

Deno.test("a reload that cannot read its files fails as RELOAD_FAILED, logged, announcing nothing", async () => {
  const s = setup({ brokenSecret: true });
  let caught: unknown;
  await s.lifecycle.reload().catch((e) => (caught = e));
  assert(caught instanceof HubError, `expected a HubError, got ${caught}`);
  assertEquals([restStatus(caught), caught.code], [500, "RELOAD_FAILED"]);
  assertEquals(caught.message, "Reload failed: auth.json does not exist");
  assertEquals(s.errors, ["Reload failed: auth.json does not exist"]);
  assertEquals(s.events, []);
});

// --- dev mode: one rebuilt plugin ---

Deno.test("a single-plugin reload sends plugin.update first, then announces like a reload", async () => {
  const s = setup({
    before: [registeredPlugin("demo")],
    after: [registeredPlugin("demo", { adapterHash: "2" })],
    one: { kind: "reloaded", plugin: "demo", durationMs: 3 },
  });
  assertEquals((await s.lifecycle.reloadPlugin("/plugins/demo")).kind, "reloaded");
  assertEquals(s.events, [
    "reload one /plugins/demo",
    'plugin.update {"plugin":{"name":"demo"}}',
    "announce reload",
  ]);
});

Deno.test("a single-plugin reload of a new version enforces the review before announcing", async () => {
  const s = setup({
    ...grantedAtOldVersion(),
    after: [registeredPlugin("demo", { version: "2.0.0" })],
    one: { kind: "reloaded", plugin: "demo", durationMs: 3 },
  });
  await s.lifecycle.reloadPlugin("/plugins/demo");
  assertEquals(s.events.slice(0, 2), ["reload one /plugins/demo", "write"]);
  assertEquals(s.config().permissions.demo.permission, "off");
  assertMatch(s.warnings[0], /changed from version 1\.0\.0 to 2\.0\.0/);
});

Deno.test("a plugin only a full reload can place gets one", async () => {
  const s = setup({ before: [], after: [], one: { kind: "full", reason: "new" } });
  await s.lifecycle.reloadPlugin("/plugins/new");
  assertEquals(s.events, ["reload one /plugins/new", "reload", "secret check", "announce reload"]);
});

Deno.test("a failed or unchanged rebuild announces nothing", async () => {
  for (
    const one of [
      { kind: "failed", plugin: "demo", error: "broken" },
      { kind: "unchanged", plugin: "demo" },
    ] as PluginReload[]
  ) {
    const s = setup({ before: [registeredPlugin("demo")], one });
    assertEquals(await s.lifecycle.reloadPlugin("/plugins/demo"), one);
    assertEquals(s.events, ["reload one /plugins/demo"]);
  }
});
