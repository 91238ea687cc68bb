import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { createCatalog } from "../calls/catalog.ts";
import { BROWSER_TOOLS, registerBrowserTools } from "../browser_tools/mod.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import { registryOf } from "../plugins/registry.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";
import { syncFull } from "./sync.ts";

const slack = registeredPlugin("slack", {
  tools: [registeredTool("slack", "send_message"), registeredTool("slack", "read_channel")],
});

function sync(config: HubConfig, skip = false, forced = false) {
  const registry = registryOf([slack]);
  const catalog = createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => skip,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
  return syncFull(registry, config, catalog, skip, forced);
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
