import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { BROWSER_TOOLS, registerBrowserTools } from "../browser_tools/mod.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import type { HubTool } from "../management/hub_tool.ts";
import { z } from "zod";
import { MAX_PROBLEMS } from "../plugins/validation_problems.ts";
import { emptyRegistry, registryOf } from "../plugins/registry.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import { createCatalog } from "./catalog.ts";
import type { Catalog, ListedTool } from "./catalog_interface.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";
import { loadValidators } from "../plugins/validators.ts";

// Validators need ajv, which the pipeline loads before the first call.
await loadValidators();

/** Every declared browser tool, in declaration order. */
const BROWSER_NAMES = BROWSER_TOOLS.map((t) => t.name);
const HUB_NAMES = ["plugin_list_tabs", "plugin_inspect", "plugin_mark_reviewed"];

const sendMessage = registeredTool("slack", "send_message", {
  displayName: "Send message",
  description: "Send a message.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" }, tabId: { type: "integer" } },
    required: ["text"],
  },
  validate: (input) => {
    const text = (input as Record<string, unknown>).text;
    return typeof text === "string"
      ? { valid: true, errors: [] }
      : { valid: false, errors: ["text: must be string"] };
  },
});

const slack = registeredPlugin("slack", {
  urlPatterns: ["https://app.slack.test/*"],
  tools: [sendMessage],
});

interface Setup {
  config?: HubConfig;
  skip?: boolean;
  registry?: Registry;
}

function catalogOf(
  { config = defaultConfig(), skip = false, registry = emptyRegistry() }: Setup = {},
) {
  return createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => skip,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
}

function listed(catalog: Catalog, name: string): ListedTool | undefined {
  return catalog.list().find((t) => t.name === name);
}

function findOrFail(catalog: Catalog, name: string) {
  const tool = catalog.find(name);
  assert(tool, `tool ${name} exists`);
  return tool;
}

Deno.test("list() holds the browser tools and the management tools, in order", () => {
  const names = catalogOf().list().map((t) => t.name);
  assertEquals(names, [...BROWSER_NAMES, ...HUB_NAMES]);
});

Deno.test("browser tools default to off and their descriptions start with [Disabled]", () => {
  const catalog = catalogOf();
  for (const name of BROWSER_NAMES) {
    const tool = listed(catalog, name)!;
    assertEquals(tool.plugin, "browser", name);
    assertEquals(tool.permission, "off", name);
    assert(tool.description.startsWith("[Disabled] "), `${name}: ${tool.description}`);
    assertEquals(tool.description, `[Disabled] ${findOrFail(catalog, name).description}`);
  }
});

Deno.test("management tools are always auto, group hub, without the [Disabled] mark", () => {
  const config = defaultConfig();
  config.permissions.hub = { permission: "off", tools: {} };
  const catalog = catalogOf({ config });
  for (const name of HUB_NAMES) {
    const tool = listed(catalog, name)!;
    assertEquals(tool.plugin, "hub", name);
    assertEquals(tool.permission, "auto", name);
    assertEquals(tool.description.startsWith("[Disabled]"), false, name);
    assertEquals(catalog.permission(findOrFail(catalog, name)), "auto");
  }
});

Deno.test("browser permissions follow the plugin default and per-tool overrides", () => {
  const config = defaultConfig();
  config.permissions.browser = { permission: "ask", tools: { browser_click_element: "auto" } };
  const catalog = catalogOf({ config });
  assertEquals(listed(catalog, "browser_list_tabs")!.permission, "ask");
  assertEquals(listed(catalog, "browser_click_element")!.permission, "auto");
  const description = listed(catalog, "browser_list_tabs")!.description;
  assertEquals(description, findOrFail(catalog, "browser_list_tabs").description);
});

Deno.test("a tool in disabledBrowserTools is not listed and isDisabled is true", () => {
  const config = defaultConfig();
  config.disabledBrowserTools = ["browser_click_element"];
  config.permissions.browser = { permission: "auto", tools: {} };
  const catalog = catalogOf({ config });
  assertEquals(listed(catalog, "browser_click_element"), undefined);
  assertEquals(
    catalog.list("browser").map((t) => t.name),
    BROWSER_NAMES.filter((n) => n !== "browser_click_element"),
  );
  const click = findOrFail(catalog, "browser_click_element");
  assertEquals(catalog.isDisabled(click), true, "still found, but disabled");
  assertEquals(catalog.isDisabled(findOrFail(catalog, "browser_list_tabs")), false);
  assertEquals(catalog.isDisabled(findOrFail(catalog, "plugin_inspect")), false);
  assert(catalog.allNames("browser").includes("browser_click_element"));
});

Deno.test("a new config (configs are replaced, never mutated) changes the listing", () => {
  let config = defaultConfig();
  const catalog = createCatalog({
    registry: () => emptyRegistry(),
    config: () => config,
    skipPermissions: () => false,
    browserTools: registerBrowserTools(),
    hubTools: HUB_TOOLS,
  });
  assertEquals(listed(catalog, "browser_execute_script")!.permission, "off");
  config = { ...defaultConfig(), disabledBrowserTools: ["browser_execute_script"] };
  assertEquals(listed(catalog, "browser_execute_script"), undefined);
  config = { ...defaultConfig(), permissions: { browser: { permission: "ask", tools: {} } } };
  assertEquals(listed(catalog, "browser_execute_script")!.permission, "ask");
});

Deno.test("skipPermissions turns ask into auto, but off stays off", () => {
  const config = defaultConfig();
  config.permissions.browser = {
    permission: "ask",
    tools: { browser_click_element: "off", browser_navigate_tab: "auto" },
  };
  config.permissions.slack = { permission: "ask", tools: {} };
  const catalog = catalogOf({ config, skip: true, registry: registryOf([slack]) });
  assertEquals(listed(catalog, "browser_list_tabs")!.permission, "auto");
  assertEquals(listed(catalog, "browser_navigate_tab")!.permission, "auto");
  assertEquals(listed(catalog, "browser_click_element")!.permission, "off");
  assertMatch(listed(catalog, "browser_click_element")!.description, /^\[Disabled\] /);
  assertEquals(listed(catalog, "slack__send_message")!.permission, "auto");
  assertEquals(listed(catalog, "browser_screenshot_tab")!.permission, "auto");

  const noSkip = catalogOf({ config, skip: false, registry: registryOf([slack]) });
  assertEquals(listed(noSkip, "browser_list_tabs")!.permission, "ask");
});

Deno.test("plugin tools are listed first, with permissions keyed by their base name", () => {
  const config = defaultConfig();
  config.permissions.slack = { permission: "off", tools: { send_message: "ask" } };
  const catalog = catalogOf({ config, registry: registryOf([slack]) });
  const all = catalog.list();
  assertEquals(all[0], {
    name: "slack__send_message",
    description: "Send a message.",
    inputSchema: sendMessage.inputSchema,
    plugin: "slack",
    permission: "ask",
  });
  assertEquals(catalog.list("slack").map((t) => t.name), ["slack__send_message"]);
  assertEquals(catalog.list("hub").map((t) => t.name), HUB_NAMES);
  assertEquals(catalog.groups(), ["slack", "browser", "hub"]);
  const found = findOrFail(catalog, "slack__send_message");
  assertEquals(found.kind, "plugin");
  assertEquals(found.group, "slack");
});

Deno.test("check() validates a browser tool's zod input and names the missing field", () => {
  const catalog = catalogOf();
  const navigate = findOrFail(catalog, "browser_navigate_tab");
  const result = catalog.check(navigate, {});
  assert(!result.ok);
  assertEquals(result.errors.length, 1);
  assertMatch(result.errors[0], /^url: /);
  const badUrl = catalog.check(navigate, { url: "not a url" });
  assert(!badUrl.ok);
  assertMatch(badUrl.errors[0], /^url: /);
  const badTab = catalog.check(navigate, { url: "https://a.test/", tabId: 0 });
  assert(!badTab.ok);
  assertMatch(badTab.errors[0], /^tabId: /);
});

Deno.test("check() applies the zod defaults of a browser tool (waitForLoad true)", () => {
  const catalog = catalogOf();
  const navigate = findOrFail(catalog, "browser_navigate_tab");
  assertEquals(catalog.check(navigate, { url: "https://a.test/" }), {
    ok: true,
    input: { url: "https://a.test/", waitForLoad: true },
  });
  assertEquals(catalog.check(navigate, { url: "https://a.test/", waitForLoad: false, tabId: 3 }), {
    ok: true,
    input: { url: "https://a.test/", waitForLoad: false, tabId: 3 },
  });
});

Deno.test("check() of a plugin tool splits off the injected parameters", () => {
  const catalog = catalogOf({ registry: registryOf([slack]) });
  const send = findOrFail(catalog, "slack__send_message");
  assertEquals(catalog.check(send, { text: "hi", tabId: 4, instance: "work" }), {
    ok: true,
    input: { text: "hi" },
    tabId: 4,
    instance: "work",
  });
  assertEquals(catalog.check(send, { text: 1 }), { ok: false, errors: ["text: must be string"] });
});

Deno.test("find() of an unknown name is undefined", () => {
  const catalog = catalogOf({ registry: registryOf([slack]) });
  assertEquals(catalog.find("nope"), undefined);
  assertEquals(catalog.find("slack__nope"), undefined);
  assertEquals(catalog.find("send_message"), undefined, "plugin tools need their prefix");
  assertEquals(catalog.find(""), undefined);
  assertEquals(findOrFail(catalog, "browser_list_tabs").kind, "browser");
  assertEquals(findOrFail(catalog, "plugin_inspect").kind, "hub");
});

Deno.test("listed browser and hub tools carry a JSON Schema of their zod input", () => {
  const catalog = catalogOf();
  const schema = listed(catalog, "browser_navigate_tab")!.inputSchema;
  assertEquals(schema.type, "object");
  assertEquals(schema.required, ["url"]);
  assertEquals("$schema" in schema, false);
  assertEquals(listed(catalog, "plugin_inspect")!.inputSchema.type, "object");
});

/** A management tool whose input has an array, to check how zod problems are reported. */
const TAGGER: HubTool = {
  name: "tagger",
  displayName: "Tagger",
  description: "Takes tags.",
  input: z.object({ tags: z.array(z.string()) }),
  run: () => "ok",
};

function taggerCatalog(): Catalog {
  return createCatalog({
    registry: () => emptyRegistry(),
    config: () => defaultConfig(),
    skipPermissions: () => false,
    browserTools: [],
    hubTools: [TAGGER],
  });
}

Deno.test("check() reports a handful of zod problems, then how many more", () => {
  const catalog = taggerCatalog();
  const result = catalog.check(findOrFail(catalog, "tagger"), { tags: new Array(40).fill(0) });
  assert(!result.ok);
  assertEquals(result.errors.length, MAX_PROBLEMS + 1);
  assertMatch(result.errors[0], /^tags\.0: /);
  assertEquals(result.errors.at(-1), `…and ${40 - MAX_PROBLEMS} more`);
});

Deno.test("check() of a built-in tool reports a huge bad input by its first problem", () => {
  const catalog = taggerCatalog();
  const tool = findOrFail(catalog, "tagger");
  const result = catalog.check(tool, { tags: new Array(1_000_000).fill(0) });
  assertEquals(result, { ok: false, errors: ["tags.0: must be string"] });
  // A huge input that is valid still goes through zod (and gets its parsed input).
  const tags = new Array(20_000).fill("a");
  assertEquals(catalog.check(tool, { tags }), { ok: true, input: { tags } });
});
