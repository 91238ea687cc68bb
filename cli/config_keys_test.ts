import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { parseSetCommand, parseSettingValue, type SetContext } from "./config_keys.ts";
import { defaultConfig, type HubConfig } from "../server/config/schema.ts";

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
  assertEquals(config.permissions.slack, { permission: "off", tools: { send_message: "ask" } });
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
