import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { createCatalog } from "../calls/catalog.ts";
import { BROWSER_TOOLS, registerBrowserTools } from "../browser_tools/mod.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import { registryOf } from "../plugins/registry.ts";
import type { RegisteredPlugin } from "../plugins/registry_interface.ts";
import { HUB_TO_EXTENSION_METHODS } from "../../protocol/events.ts";
import type { UpdateCheck } from "../../protocol/packages.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";
import { syncFull } from "./sync_state.ts";

const slack = registeredPlugin("slack", {
  tools: [registeredTool("slack", "send_message"), registeredTool("slack", "read_channel")],
});

function sync(
  config: HubConfig,
  skip = false,
  forced = false,
  plugins: RegisteredPlugin[] = [slack],
  updates?: UpdateCheck,
) {
  const registry = registryOf(plugins);
  const catalog = createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => skip,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
  return syncFull(registry, config, catalog, skip, forced, updates);
}

Deno.test("tools carry their own setting as override; without one they follow the plugin", () => {
  const config = defaultConfig();
  config.permissions.slack = { permission: "ask", tools: { read_channel: "off" } };
  const [plugin] = sync(config).plugins;
  assertEquals(plugin.permission, "ask");
  assertEquals(
    plugin.tools.map((t) => [t.name, t.permission, t.override]),
    [["slack__send_message", "ask", undefined], ["slack__read_channel", "off", "off"]],
  );
});

Deno.test("every browser tool is synced, disabled ones too, with the browser default", () => {
  const config = defaultConfig();
  config.permissions.browser = { permission: "ask", tools: { browser_list_tabs: "auto" } };
  config.disabledBrowserTools = ["browser_execute_script"];
  const state = sync(config);
  assertEquals(state.browserPermission, "ask");
  assertEquals(state.browserTools.map((t) => t.name), BROWSER_TOOLS.map((t) => t.name));
  assertEquals(state.disabledBrowserTools, ["browser_execute_script"]);
  const byName = new Map(state.browserTools.map((t) => [t.name, t]));
  assertEquals(byName.get("browser_list_tabs")?.override, "auto");
  assertEquals(byName.get("browser_navigate_tab")?.permission, "ask");
  assertEquals(byName.get("browser_navigate_tab")?.override, undefined);
});

Deno.test("with skip-permissions, effective ask becomes auto but the settings stay as set", () => {
  const config = defaultConfig();
  config.permissions.slack = { permission: "ask", tools: {} };
  const state = sync(config, true);
  assertEquals([state.skipPermissions, state.skipPermissionsForced], [true, false]);
  assertEquals(sync(config, true, true).skipPermissionsForced, true, "set by the environment");
  assertEquals(state.plugins[0].permission, "ask");
  assertEquals(state.plugins[0].tools[0].permission, "auto");
  assertEquals(state.browserPermission, "off");
});

Deno.test("npm plugins carry their package name, local ones their folder, both their settings form", () => {
  const configSchema = { workspace: { type: "url" as const, label: "Workspace" } };
  const npm = registeredPlugin("mail", {
    source: "npm",
    packageName: "@tabhub/hub-plugin-mail",
    dir: "/usr/lib/node_modules/@tabhub/hub-plugin-mail",
    configSchema,
  });
  const [local, mail] = ["slack", "mail"].map((name) =>
    sync(defaultConfig(), false, false, [slack, npm]).plugins.find((p) => p.name === name)!
  );
  assertEquals([mail.source, mail.packageName, mail.dir], [
    "npm",
    "@tabhub/hub-plugin-mail",
    undefined,
  ]);
  assertEquals(mail.configSchema, configSchema);
  assertEquals([local.source, local.packageName, local.dir], [
    "local",
    undefined,
    "/plugins/slack",
  ]);
  assertEquals("configSchema" in local, false, "no settings: no form");
});

Deno.test("updates are absent before the first check, then sent as found; the payload fits the schema", () => {
  assertEquals("updates" in sync(defaultConfig()), false);
  const updates: UpdateCheck = {
    checkedAt: 5,
    updates: [{
      name: "hub-plugin-a",
      plugin: "a",
      installedVersion: "1.0.0",
      latestVersion: "2.0.0",
    }],
  };
  const state = sync(defaultConfig(), false, false, [slack], updates);
  assertEquals(state.updates, updates);
  const parsed = HUB_TO_EXTENSION_METHODS["sync.full"].params.safeParse(state);
  assertEquals(parsed.success, true, JSON.stringify(parsed.error?.issues));
});

Deno.test("a plugin is enabled (its adapter may be injected) only when it or a tool is not off", () => {
  const enabled = (entry?: HubConfig["permissions"][string]) => {
    const config = defaultConfig();
    if (entry) config.permissions.slack = entry;
    return sync(config).plugins[0].enabled;
  };
  assertEquals(enabled(), false, "no entry: off");
  assertEquals(enabled({ permission: "off", tools: {} }), false);
  assertEquals(enabled({ permission: "off", tools: { send_message: "off" } }), false);
  assertEquals(enabled({ permission: "ask", tools: {} }), true);
  assertEquals(enabled({ permission: "off", tools: { read_channel: "auto" } }), true);
  // Granted for another version or source: reset pending, so nothing is injected.
  assertEquals(
    enabled({ permission: "auto", tools: {}, reviewedVersion: "1.0.0", reviewedSource: "npm:x" }),
    false,
  );
  assertEquals(
    enabled({
      permission: "auto",
      tools: {},
      reviewedVersion: "1.0.0",
      reviewedSource: slack.sourceId,
    }),
    true,
  );
});

Deno.test("needsReview comes with its reason: another version or another source", () => {
  const reviewed = (fields: Partial<HubConfig["permissions"][string]>) => {
    const config = defaultConfig();
    config.permissions.slack = {
      permission: "off",
      tools: {},
      reviewedVersion: "1.0.0",
      reviewedSource: slack.sourceId,
      ...fields,
    };
    const [plugin] = sync(config).plugins;
    return [plugin.needsReview, plugin.reviewReason];
  };
  assertEquals(reviewed({}), [false, undefined]);
  assertEquals(reviewed({ reviewedVersion: "0.9.0" }), [true, "version"]);
  assertEquals(reviewed({ reviewedSource: "npm:@aaa/hub-plugin-slack" }), [true, "source"]);
});

Deno.test("sync.full carries the site rules, the default for other sites and agentTabsOnly", () => {
  assertEquals(
    [sync(defaultConfig()).sitePermissions, sync(defaultConfig()).defaultSitePermission],
    [{}, "ask"],
  );
  const config: HubConfig = {
    ...defaultConfig(),
    sitePermissions: { "example.com": "off", "*.example.org": "auto" },
    defaultSitePermission: "off",
    agentTabsOnly: true,
  };
  const state = sync(config);
  assertEquals(state.sitePermissions, { "example.com": "off", "*.example.org": "auto" });
  assertEquals([state.defaultSitePermission, state.agentTabsOnly], ["off", true]);
  const parsed = HUB_TO_EXTENSION_METHODS["sync.full"].params.safeParse(state);
  assertEquals(parsed.success, true, JSON.stringify(parsed.error?.issues));
});
