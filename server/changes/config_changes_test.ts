import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import type { LiveFile } from "../../core/files/live_file.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { createCatalog } from "../calls/catalog.ts";
import { registryOf } from "../plugins/registry.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import type { HubFiles } from "../files/hub_files_interface.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import { createConfigChanges } from "./config_changes.ts";

const demo = registeredPlugin("demo", {
  version: "2.0.0",
  tools: [registeredTool("demo", "echo")],
});

/** Config changes over a config in memory; `log` records writes, notifications and listeners. */
function setup(skipForced = false) {
  let config: HubConfig = defaultConfig();
  let written = 0;
  const log: string[] = [];
  const live: LiveFile<HubConfig> = { get: () => config, refresh: () => config };
  const store = {
    update(mutate: (c: HubConfig) => void) {
      const next = structuredClone(config);
      mutate(next);
      config = next;
      written++;
      log.push("write");
      return Promise.resolve(next);
    },
  } as unknown as ConfigStore;
  const files = { config: live, store } as unknown as HubFiles;
  const registry = registryOf([demo]);
  const catalog = createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => skipForced || config.skipPermissions,
    browserTools: [],
    hubTools: HUB_TOOLS,
  });
  const notes: { method: string; params: unknown }[] = [];
  const link = {
    notify(method: string, params: unknown) {
      notes.push({ method, params });
      log.push(method);
      return true;
    },
  };
  const changes = createConfigChanges({
    files,
    registry: () => registry,
    catalog,
    link: link as never,
    skipForced,
  });
  changes.onAnnounce((reason) => log.push(`listener:${reason}`));
  return { changes, config: () => config, written: () => written, log, notes };
}

Deno.test("a permission is written, read back, then announced to the extension and MCP", async () => {
  const s = setup();
  await s.changes.setPermission({ plugin: "demo" }, "ask");
  assertEquals(s.log, ["write", "sync.full", "plugins.changed", "listener:permissions"]);
  assertEquals(s.notes[1].params, { reason: "permissions" });
  assertEquals(s.config().permissions.demo.permission, "ask");
  assertEquals(s.config().permissions.demo.reviewedVersion, "2.0.0", "choosing reviews it");
  const synced = s.notes[0].params as ReturnType<typeof s.changes.state>;
  assertEquals(synced.plugins[0].permission, "ask");
});

Deno.test("a target that does not exist is INVALID_ARGUMENTS (400); nothing is written", async () => {
  const s = setup();
  let caught: unknown;
  await s.changes.setPermission({ plugin: "demo", tool: "nope" }, "auto").catch((e) => caught = e);
  assert(caught instanceof HubError, `expected a HubError, got ${caught}`);
  assertEquals([restStatus(caught), caught.code], [400, "INVALID_ARGUMENTS"]);
  assertMatch(caught.message, /Plugin "demo" has no tool "nope" \(tools: echo\)/);
  assertEquals([s.written(), s.notes.length], [0, 0]);
});

Deno.test("always allow makes that one tool auto", async () => {
  const s = setup();
  const tool = {
    group: "demo",
    permissionKey: "echo",
  } as Parameters<typeof s.changes.allowAlways>[0];
  await s.changes.allowAlways(tool);
  assertEquals(s.config().permissions.demo.tools, { echo: "auto" });
  assertEquals(s.config().permissions.demo.permission, "off");
});

Deno.test("the skip switch shows in the side panel's state; the environment forces it", async () => {
  const s = setup();
  assertEquals(s.changes.state().skipPermissions, false);
  await s.changes.setSkipPermissions(true);
  assertEquals(s.config().skipPermissions, true);
  assertEquals([s.changes.state().skipPermissions, s.changes.state().skipPermissionsForced], [
    true,
    false,
  ]);
  const forced = setup(true);
  assertEquals(
    [forced.changes.state().skipPermissions, forced.changes.state().skipPermissionsForced],
    [true, true],
  );
});

Deno.test("marking reviewed records the source and version and returns the new config", async () => {
  const s = setup();
  const config = await s.changes.markReviewed("demo", "2.0.0", "npm:hub-plugin-demo");
  assertEquals(config.permissions.demo.reviewedVersion, "2.0.0");
  assertEquals(config.permissions.demo.reviewedSource, "npm:hub-plugin-demo");
  assertEquals(s.log.at(-1), "listener:permissions");
});

Deno.test("a reload's announcement says so", () => {
  const s = setup();
  s.changes.announce("reload");
  assertEquals(s.notes.map((n) => n.method), ["sync.full", "plugins.changed"]);
  assertEquals(s.notes[1].params, { reason: "reload" });
  assertEquals(s.log.at(-1), "listener:reload");
});

Deno.test("a site rule is stored canonically, announced, and removed with null", async () => {
  const s = setup();
  await s.changes.setSitePermission("App.Example.COM", "off");
  assertEquals(s.config().sitePermissions, { "app.example.com": "off" });
  assertEquals(s.log, ["write", "sync.full", "plugins.changed", "listener:permissions"]);
  const synced = s.notes[0].params as ReturnType<typeof s.changes.state>;
  assertEquals(synced.sitePermissions, { "app.example.com": "off" });
  await s.changes.setSitePermission("127.0.0.1:8080", "auto");
  await s.changes.setSitePermission("app.example.com", null);
  assertEquals(s.config().sitePermissions, { "127.0.0.1:8080": "auto" });
});

Deno.test("an invalid site pattern is INVALID_ARGUMENTS with its problem; nothing is written", async () => {
  const s = setup();
  for (const pattern of ["https://example.com/path", "a.*.b", "constructor"]) {
    let caught: unknown;
    await s.changes.setSitePermission(pattern, "auto").catch((e) => caught = e);
    assert(caught instanceof HubError, `expected a HubError, got ${caught}`);
    assertEquals([restStatus(caught), caught.code], [400, "INVALID_ARGUMENTS"]);
    assert(caught.message.includes(JSON.stringify(pattern)), caught.message);
  }
  assertEquals([s.written(), s.notes.length], [0, 0]);
});

Deno.test("a 501st site rule is INVALID_ARGUMENTS; nothing is announced", async () => {
  const s = setup();
  await s.changes.setSitePermission("seed.example", "off");
  s.config().sitePermissions = Object.fromEntries(
    Array.from({ length: 500 }, (_, i) => [`s${i}.example`, "off" as const]),
  );
  const before = s.notes.length;
  let caught: unknown;
  await s.changes.setSitePermission("new.example", "ask").catch((e) => caught = e);
  assert(caught instanceof HubError && caught.code === "INVALID_ARGUMENTS", String(caught));
  assertMatch(caught.message, /500 rules/);
  assertEquals(s.notes.length, before);
});

Deno.test("site defaults change only the fields given, and show in the side panel's state", async () => {
  const s = setup();
  assertEquals(
    [s.changes.state().defaultSitePermission, s.changes.state().agentTabsOnly],
    ["ask", false],
  );
  await s.changes.setSiteDefaults({ agentTabsOnly: true });
  assertEquals([s.config().defaultSitePermission, s.config().agentTabsOnly], ["ask", true]);
  await s.changes.setSiteDefaults({ defaultSitePermission: "off" });
  assertEquals([s.config().defaultSitePermission, s.config().agentTabsOnly], ["off", true]);
  assertEquals(s.changes.state().defaultSitePermission, "off");
  assertEquals(s.log.at(-1), "listener:permissions");
});
