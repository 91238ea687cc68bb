import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { grantedPlugin, parseSetCommand, parseSettingValue, type SetContext } from "./keys.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";

const ctx: SetContext = {
  cwd: "/home/me/work",
  configDir: "/home/me/.hub",
  force: false,
  isDirectory: (p) => p === "/home/me/work/plug" || p === "/abs/plug",
};

function apply(key: string, value?: string, config: HubConfig = defaultConfig(), c = ctx) {
  parseSetCommand(key, value, c).apply(config);
  return config;
}

Deno.test("tool-permission and plugin-permission set the right entries", () => {
  const config = apply("tool-permission.slack.send_message", "ask");
  assertEquals(config.permissions.slack, {
    permission: "off",
    tools: { send_message: "ask" },
    unboundGrant: true,
  });
  apply("plugin-permission.slack", "auto", config);
  assertEquals(config.permissions.slack.permission, "auto");
  assertEquals(config.permissions.slack.tools, { send_message: "ask" });
  assertEquals(apply("plugin-permission.browser", "ask").permissions.browser.permission, "ask");
});

Deno.test("permission keys reject bad values, names and prefixed tool names", () => {
  assertThrows(() => apply("plugin-permission.slack", "yes"), /off, ask, auto/);
  assertThrows(() => apply("plugin-permission.Slack", "ask"), /not a plugin name/);
  assertThrows(() => apply("tool-permission.extension.x", "ask"), /not a plugin name|reserved/);
  assertThrows(() => apply("tool-permission.slack.slack__send", "ask"), /base name/);
  // Any separator is refused, and the suggestion is the last part, as before the call contract.
  assertThrows(
    () => apply("tool-permission.slack.__x", "ask"),
    /prefixed one: "x" instead of "__x"/,
  );
  assertThrows(
    () => apply("tool-permission.slack.a__b__c", "ask"),
    /prefixed one: "c" instead of "a__b__c"/,
  );
  assertThrows(() => apply("tool-permission.slack.slack__send", "ask"), /"send" instead/);
  assertThrows(() => apply("tool-permission.slack.a b", "ask"), /not a tool name/);
  assertThrows(() => apply("tool-permission.slack", "ask"), /Unknown config key/);
});

Deno.test("port accepts 1-65535 only", () => {
  assertEquals(apply("port", "65535").port, 65535);
  for (const bad of ["0", "65536", "abc", "1.5"]) {
    assertThrows(() => apply("port", bad), /1 to 65535/);
  }
  assertThrows(() => apply("port"), /needs a value/);
});

Deno.test("localPlugins.add resolves against cwd, checks existence unless forced, dedupes", () => {
  const config = apply("localPlugins.add", "plug");
  assertEquals(config.localPlugins, ["/home/me/work/plug"]);
  apply("localPlugins.add", "/home/me/work/plug", config);
  assertEquals(config.localPlugins.length, 1);
  assertThrows(() => apply("localPlugins.add", "missing"), /not an existing folder.*--force/);
  const forced = apply("localPlugins.add", "missing", defaultConfig(), { ...ctx, force: true });
  assertEquals(forced.localPlugins, ["/home/me/work/missing"]);
});

Deno.test("localPlugins.remove matches stored relative paths and fails on unknown ones", () => {
  const config = defaultConfig();
  config.localPlugins = ["../work/plug", "/abs/plug"];
  apply("localPlugins.remove", "/home/me/work/plug", config);
  assertEquals(config.localPlugins, ["/abs/plug"]);
  assertThrows(() => apply("localPlugins.remove", "/nowhere", config), /not in localPlugins/);
});

Deno.test("setting stores JSON values or text; empty string removes the key", () => {
  const config = apply("setting.slack.url", '{"work":"https://w.example"}');
  apply("setting.slack.enabled", "true", config);
  apply("setting.slack.name", "my team", config);
  assertEquals(config.settings.slack, {
    url: { work: "https://w.example" },
    enabled: true,
    name: "my team",
  });
  apply("setting.slack.name", "", config);
  apply("setting.slack.enabled", "", config);
  apply("setting.slack.url", "", config);
  assertEquals(config.settings, {});
  assertThrows(() => apply("setting.browser"), /Unknown config key/);
});

Deno.test("unknown keys list what can be set", () => {
  assertThrows(() => apply("colour", "red"), /Unknown config key "colour".*\n.*tool-permission/s);
});

Deno.test("parseSettingValue", () => {
  assertEquals(parseSettingValue("3"), 3);
  assertEquals(parseSettingValue("false"), false);
  assertEquals(parseSettingValue("https://x.example"), "https://x.example");
});

// --- disabledBrowserTools ---

Deno.test("disabledBrowserTools.add and .remove turn a browser tool off and on again", () => {
  const config = apply("disabledBrowserTools.add", "browser_click_element");
  assertEquals(config.disabledBrowserTools, ["browser_click_element"]);
  apply("disabledBrowserTools.add", "browser_execute_script", config);
  apply("disabledBrowserTools.add", "browser_click_element", config);
  assertEquals(
    config.disabledBrowserTools,
    ["browser_execute_script", "browser_click_element"],
    "adding again keeps one entry",
  );
  apply("disabledBrowserTools.remove", "browser_click_element", config);
  assertEquals(config.disabledBrowserTools, ["browser_execute_script"]);
  apply("disabledBrowserTools.remove", "browser_click_element", config);
  assertEquals(config.disabledBrowserTools, ["browser_execute_script"], "removing twice is fine");
});

Deno.test("disabledBrowserTools summaries say what happened", () => {
  assertEquals(
    parseSetCommand("disabledBrowserTools.add", "browser_click_element", ctx).summary,
    "browser_click_element disabled",
  );
  assertEquals(
    parseSetCommand("disabledBrowserTools.remove", "browser_click_element", ctx).summary,
    "browser_click_element enabled again",
  );
});

Deno.test("disabledBrowserTools.add refuses names that are not browser tools, listing them", () => {
  for (
    const name of [
      "slack__send_message",
      "plugin_inspect",
      "Browser_click",
      "browser-x",
      "",
      "browser_clik_element",
    ]
  ) {
    assertThrows(
      () => apply("disabledBrowserTools.add", name),
      /is not a browser tool\. Browser tools: browser_list_tabs, /,
      name,
    );
  }
  // Removing a name that is no tool (left by an older hub) is allowed: it cleans up.
  const config = defaultConfig();
  config.disabledBrowserTools = ["browser_gone"];
  apply("disabledBrowserTools.remove", "browser_gone", config);
  assertEquals(config.disabledBrowserTools, []);
  assertThrows(() => apply("disabledBrowserTools.add"), /needs a value/);
  assertThrows(() => apply("disabledBrowserTools", "browser_click_element"), /Unknown config key/);
});

// --- a person granting a permission reviews the source serving the name now ---

const SERVED = { version: "1.0.0", sourceId: "npm:x-pkg" };
const served = (identity = SERVED): SetContext => ({ ...ctx, served: identity });

function reviewed(): HubConfig {
  const config = defaultConfig();
  config.permissions.x = {
    permission: "off",
    tools: { t: "ask" },
    reviewedVersion: "1.0.0",
    reviewedSource: "npm:x-pkg",
  };
  return config;
}

Deno.test("a grant binds to the source serving the name now, keeping its other grants", () => {
  for (const value of ["auto", "ask"]) {
    const config = apply("plugin-permission.x", value, reviewed(), served());
    assertEquals(config.permissions.x, { ...reviewed().permissions.x, permission: value }, value);
    const tool = apply("tool-permission.x.u", value, reviewed(), served());
    assertEquals(tool.permissions.x.tools, { t: "ask", u: value }, value);
  }
});

Deno.test("a grant for another source or version takes back the old grants first", () => {
  const other = { version: "2.0.0", sourceId: "npm:impostor" };
  const config = apply("plugin-permission.x", "auto", reviewed(), served(other));
  assertEquals(config.permissions.x, {
    permission: "auto",
    tools: {},
    reviewedVersion: "2.0.0",
    reviewedSource: "npm:impostor",
  });
});

Deno.test("a grant while no single source serves the name is stored unbound", () => {
  const config = apply("tool-permission.x.u", "auto", reviewed());
  assertEquals(config.permissions.x, {
    permission: "off",
    tools: { u: "auto" },
    unboundGrant: true,
  });
  apply("plugin-permission.x", "ask", config);
  assertEquals(config.permissions.x, {
    permission: "ask",
    tools: { u: "auto" },
    unboundGrant: true,
  });
  // Bound later to what serves it then: the unbound grants do not carry over.
  apply("plugin-permission.x", "auto", config, served());
  assertEquals(config.permissions.x, {
    ...reviewed().permissions.x,
    permission: "auto",
    tools: {},
  });
});

Deno.test("setting a permission to off binds nothing and keeps the review", () => {
  const plugin = apply("plugin-permission.x", "off", reviewed());
  assertEquals(plugin.permissions.x, reviewed().permissions.x);
  const tool = apply("tool-permission.x.t", "off", reviewed());
  assertEquals(tool.permissions.x, { ...reviewed().permissions.x, tools: { t: "off" } });
});

Deno.test("granting a permission leaves other plugins' reviews alone", () => {
  const config = reviewed();
  config.permissions.y = { permission: "auto", tools: {}, reviewedVersion: "2.0.0" };
  apply("plugin-permission.x", "auto", config);
  assertEquals(config.permissions.y, { permission: "auto", tools: {}, reviewedVersion: "2.0.0" });
});

Deno.test("grantedPlugin names the plugin a key grants to, not browser or off", () => {
  assertEquals(grantedPlugin("plugin-permission.jira", "auto"), "jira");
  assertEquals(grantedPlugin("tool-permission.jira.t", "ask"), "jira");
  assertEquals(grantedPlugin("plugin-permission.jira", "off"), undefined);
  assertEquals(grantedPlugin("plugin-permission.browser", "auto"), undefined);
  assertEquals(grantedPlugin("setting.jira.k", "1"), undefined);
});

Deno.test("Object.prototype names are refused as plugin, tool and setting keys", () => {
  for (const key of [...Object.getOwnPropertyNames(Object.prototype), "prototype"]) {
    for (
      const [name, value] of [
        [`tool-permission.slack.${key}`, "auto"],
        [`tool-permission.browser.${key}`, "auto"],
        [`tool-permission.${key}.send_message`, "auto"],
        [`plugin-permission.${key}`, "auto"],
        [`setting.slack.${key}`, "5"],
        [`setting.slack.${key}`, ""],
        [`setting.${key}.limit`, "5"],
      ]
    ) {
      assertThrows(() => apply(name, value), new RegExp(`"${key}" is reserved`), name);
    }
  }
});

Deno.test("config set reads own entries only when it extends an existing plugin entry", () => {
  const config = apply("setting.slack.limit", "3");
  assertEquals(config.settings.slack, { limit: 3 });
  assertEquals(Object.getPrototypeOf(config.settings.slack), Object.prototype);
  assertEquals(apply("plugin-permission.slack", "ask").permissions.slack, {
    permission: "ask",
    tools: {},
    unboundGrant: true,
  });
});

Deno.test("updateCheckIntervalMinutes takes whole minutes; 0 turns the check off", () => {
  const ctx = {
    cwd: "/tmp",
    configDir: "/tmp/hub",
    force: false,
    isDirectory: () => true,
  };
  const config = defaultConfig();
  parseSetCommand("updateCheckIntervalMinutes", "0", ctx).apply(config);
  assertEquals(config.updateCheckIntervalMinutes, 0);
  const set = parseSetCommand("updateCheckIntervalMinutes", "60", ctx);
  set.apply(config);
  assertEquals([config.updateCheckIntervalMinutes, set.summary], [
    60,
    "updateCheckIntervalMinutes = 60",
  ]);
  for (const bad of ["-1", "1.5", "soon", ""]) {
    assertThrows(
      () => parseSetCommand("updateCheckIntervalMinutes", bad, ctx),
      Error,
      "whole number",
    );
  }
});

Deno.test("debugger takes auto or off; anything else says which values there are", () => {
  assertEquals(defaultConfig().debugger, "auto");
  const config = apply("debugger", "off");
  assertEquals(config.debugger, "off");
  assertEquals(apply("debugger", "auto", config).debugger, "auto");
  assertEquals(
    parseSetCommand("debugger", "off", ctx).summary,
    "debugger = off (tools use DOM events where they can; the others fail with DEBUGGER_OFF)",
  );
  for (const bad of ["on", "true", "OFF", ""]) {
    assertThrows(() => apply("debugger", bad), Error, "debugger must be auto or off");
  }
  assertThrows(() => apply("debugger"), /needs a value/);
});
