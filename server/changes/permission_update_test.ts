import { assertEquals, assertMatch, assertThrows } from "../../tests/helpers/assert.ts";
import { BROWSER_TOOLS, registerBrowserTools } from "../browser_tools/mod.ts";
import { createCatalog } from "../calls/catalog.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import { emptyRegistry, registryOf } from "../plugins/registry.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import { applyPermission, permissionTargetError } from "./permission_update.ts";
import { effectivePermission } from "../permissions/effective.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";

const tool = registeredTool;

const slack = registeredPlugin("slack", {
  version: "1.4.0",
  urlPatterns: ["https://app.slack.test/*"],
  tools: [tool("slack", "send_message"), tool("slack", "read_channel")],
});

/** A registry holding the given plugins. */

function catalogOf(registry: Registry, config: HubConfig = defaultConfig()): Catalog {
  return createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => false,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
}

// --- applyPermission ---

Deno.test("applyPermission sets a plugin's permission, creating its entry", () => {
  const config = defaultConfig();
  applyPermission(config, { plugin: "slack" }, "ask");
  assertEquals(config.permissions.slack, { permission: "ask", tools: {} });
  applyPermission(config, { plugin: "slack" }, "auto");
  assertEquals(config.permissions.slack.permission, "auto");
});

Deno.test("applyPermission sets one tool's override and keeps the others", () => {
  const config = defaultConfig();
  config.permissions.slack = { permission: "ask", tools: { read_channel: "auto" } };
  applyPermission(config, { plugin: "slack", tool: "send_message" }, "off");
  assertEquals(config.permissions.slack, {
    permission: "ask",
    tools: { read_channel: "auto", send_message: "off" },
  });
  applyPermission(config, { plugin: "slack", tool: "read_channel" }, "ask");
  assertEquals(config.permissions.slack.tools, { read_channel: "ask", send_message: "off" });
});

Deno.test("applyPermission on a tool of a plugin without an entry leaves the plugin off", () => {
  const config = defaultConfig();
  applyPermission(config, { plugin: "browser", tool: "browser_list_tabs" }, "auto");
  assertEquals(config.permissions.browser, {
    permission: "off",
    tools: { browser_list_tabs: "auto" },
  });
});

Deno.test("applyPermission records the reviewed version and source when given, and only then", () => {
  const config = defaultConfig();
  const at = (version: string) => ({ version, sourceId: "npm:hub-plugin-slack" });
  applyPermission(config, { plugin: "slack" }, "auto", at("1.4.0"));
  assertEquals(config.permissions.slack.reviewedVersion, "1.4.0");
  assertEquals(config.permissions.slack.reviewedSource, "npm:hub-plugin-slack");
  applyPermission(config, { plugin: "slack", tool: "send_message" }, "ask", at("1.5.0"));
  assertEquals(config.permissions.slack.reviewedVersion, "1.5.0");
  // Another reviewed identity: the grants of the old one do not carry over.
  assertEquals(config.permissions.slack.permission, "off");
  assertEquals(config.permissions.slack.tools, { send_message: "ask" });
  applyPermission(config, { plugin: "slack", tool: "read" }, "auto", at("1.5.0"));
  assertEquals(config.permissions.slack.tools, { send_message: "ask", read: "auto" });
  applyPermission(config, { plugin: "slack" }, "off");
  assertEquals(config.permissions.slack.reviewedVersion, "1.5.0", "kept without a version");
  assertEquals(config.permissions.slack.permission, "off");
});

Deno.test("applyPermission does not touch other plugins' entries", () => {
  const config = defaultConfig();
  config.permissions.github = { permission: "auto", tools: { x: "ask" }, reviewedVersion: "2" };
  const before = structuredClone(config.permissions.github);
  applyPermission(config, { plugin: "slack" }, "ask", { version: "1.0.0", sourceId: "npm:x" });
  assertEquals(config.permissions.github, before);
});

// --- permissionTargetError ---

Deno.test("permissionTargetError accepts an installed plugin and its tools by base name", () => {
  const registry = registryOf([slack]);
  const catalog = catalogOf(registry);
  assertEquals(permissionTargetError({ plugin: "slack" }, registry, catalog), undefined);
  assertEquals(
    permissionTargetError({ plugin: "slack", tool: "send_message" }, registry, catalog),
    undefined,
  );
});

Deno.test("permissionTargetError names an unknown plugin and lists the known ones", () => {
  const registry = registryOf([slack]);
  assertEquals(
    permissionTargetError({ plugin: "github" }, registry, catalogOf(registry)),
    'No plugin "github" (plugins: slack, browser).',
  );
  const empty = emptyRegistry();
  assertEquals(
    permissionTargetError({ plugin: "github", tool: "x" }, empty, catalogOf(empty)),
    'No plugin "github" (plugins: browser).',
  );
});

Deno.test("permissionTargetError for an unknown tool lists the tools and asks for the base name", () => {
  const registry = registryOf([slack]);
  const catalog = catalogOf(registry);
  const problem = permissionTargetError(
    { plugin: "slack", tool: "slack__send_message" },
    registry,
    catalog,
  );
  assertEquals(
    problem,
    'Plugin "slack" has no tool "slack__send_message" (tools: send_message, read_channel). ' +
      "Use the tool's own name, without the plugin prefix.",
  );
  assertMatch(
    permissionTargetError({ plugin: "slack", tool: "nope" }, registry, catalog)!,
    /has no tool "nope" \(tools: send_message, read_channel\)/,
  );
});

Deno.test("permissionTargetError accepts the browser group and every browser tool name", () => {
  const registry = emptyRegistry();
  const catalog = catalogOf(registry);
  assertEquals(permissionTargetError({ plugin: "browser" }, registry, catalog), undefined);
  for (
    const name of [
      "browser_list_tabs",
      "browser_navigate_tab",
      "browser_click_element",
      "browser_screenshot_tab",
      "browser_execute_script",
    ]
  ) {
    assertEquals(
      permissionTargetError({ plugin: "browser", tool: name }, registry, catalog),
      undefined,
      name,
    );
  }
});

Deno.test("permissionTargetError accepts a browser tool turned off in disabledBrowserTools", () => {
  const registry = emptyRegistry();
  const config = defaultConfig();
  config.disabledBrowserTools = ["browser_click_element"];
  assertEquals(
    permissionTargetError(
      { plugin: "browser", tool: "browser_click_element" },
      registry,
      catalogOf(registry, config),
    ),
    undefined,
  );
});

Deno.test("permissionTargetError refuses names that are not browser tools, listing them", () => {
  const registry = registryOf([slack]);
  const catalog = catalogOf(registry);
  for (const name of ["browser_fly", "plugin_inspect", "slack__send_message", "list_tabs"]) {
    const problem = permissionTargetError({ plugin: "browser", tool: name }, registry, catalog);
    assertEquals(
      problem,
      `No browser tool "${name}". Browser tools: ${BROWSER_TOOLS.map((t) => t.name).join(", ")}.`,
      name,
    );
  }
});

Deno.test({
  name: "the browser tools listed for a wrong name include disabled ones (valid targets)",
  fn: () => {
    const registry = emptyRegistry();
    const config = defaultConfig();
    config.disabledBrowserTools = ["browser_click_element"];
    const problem = permissionTargetError(
      { plugin: "browser", tool: "browser_fly" },
      registry,
      catalogOf(registry, config),
    );
    assertMatch(problem!, /browser_click_element/);
  },
});

// --- Object.prototype names ---

const PROTO_KEYS = [...Object.getOwnPropertyNames(Object.prototype), "prototype"];

Deno.test("permissionTargetError refuses Object.prototype names as plugin or tool", () => {
  const registry = registryOf([slack]);
  const catalog = catalogOf(registry);
  for (const key of PROTO_KEYS) {
    for (
      const target of [
        { plugin: key },
        { plugin: key, tool: "send_message" },
        { plugin: "slack", tool: key },
        { plugin: "browser", tool: key },
      ]
    ) {
      const problem = permissionTargetError(target, registry, catalog);
      assertMatch(problem ?? "", new RegExp(`"${key}" is reserved`), JSON.stringify(target));
    }
  }
});

Deno.test("applyPermission throws on a reserved name instead of touching a prototype", () => {
  const config = defaultConfig();
  assertThrows(() => applyPermission(config, { plugin: "__proto__" }, "auto"), /reserved/);
  assertThrows(
    () => applyPermission(config, { plugin: "slack", tool: "constructor" }, "auto"),
    /reserved/,
  );
  assertEquals(config.permissions, {});
  assertEquals(Object.getPrototypeOf(config.permissions), Object.prototype);
});

Deno.test("effectivePermission reads own entries only: inherited names never grant", () => {
  const config = defaultConfig();
  config.permissions.slack = { permission: "off", tools: {} };
  for (const key of PROTO_KEYS) {
    assertEquals(effectivePermission(config, "slack", key, false), "off", `tool ${key}`);
    assertEquals(effectivePermission(config, key, "x", false), "off", `plugin ${key}`);
  }
  config.permissions.slack.permission = "ask";
  assertEquals(effectivePermission(config, "slack", "constructor", false), "ask");
});
