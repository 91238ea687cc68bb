import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { validateConfig } from "./schema.ts";

/** config.json text with reserved keys in every map keyed by a name, as JSON.parse reads it. */
const TEXT = `{
  "constructor": 1,
  "permissions": {
    "demo": {"permission": "ask", "tools": {"echo": "auto", "constructor": "auto", "__proto__": "auto"}},
    "__proto__": {"permission": "auto"},
    "toString": {"permission": "auto"}
  },
  "settings": {
    "demo": {"limit": 3, "valueOf": 1, "__proto__": {"limit": 9}},
    "hasOwnProperty": {"a": 1}
  }
}`;

Deno.test("validateConfig drops Object.prototype names from every map keyed by a name", () => {
  const parsed = validateConfig(JSON.parse(TEXT));
  assertEquals(parsed.config.permissions, {
    demo: { permission: "ask", tools: { echo: "auto" } },
  });
  assertEquals(parsed.config.settings, { demo: { limit: 3 } });
  assertEquals(parsed.unknownKeys, [], "a reserved top-level key is dropped, not kept as unknown");
  assertEquals(
    [...parsed.droppedKeys].sort(byPlace),
    [
      { where: "(top level)", key: "constructor" },
      { where: "permissions", key: "__proto__" },
      { where: "permissions", key: "toString" },
      { where: "permissions.demo.tools", key: "constructor" },
      { where: "permissions.demo.tools", key: "__proto__" },
      { where: "settings", key: "hasOwnProperty" },
      { where: "settings.demo", key: "valueOf" },
      { where: "settings.demo", key: "__proto__" },
    ].sort(byPlace),
  );
  for (
    const map of [parsed.config.permissions, parsed.config.settings, parsed.config.settings.demo]
  ) {
    assertEquals(Object.getPrototypeOf(map), Object.prototype);
  }
  assert(!JSON.stringify(parsed.config).includes("constructor"));
});

function byPlace(a: { where: string; key: string }, b: { where: string; key: string }): number {
  return `${a.where} ${a.key}`.localeCompare(`${b.where} ${b.key}`);
}

Deno.test("validateConfig keeps a clean config as it is and reports nothing dropped", () => {
  const clean = { permissions: { demo: { permission: "auto" } }, settings: { demo: { a: 1 } } };
  const parsed = validateConfig(clean);
  assertEquals([...parsed.droppedKeys].sort(byPlace), []);
  assertEquals(parsed.config.settings, { demo: { a: 1 } });
  assertEquals(parsed.config.permissions.demo.permission, "auto");
});

Deno.test("validateConfig still reports wrong types under maps it cleans", () => {
  let message = "";
  try {
    validateConfig({ permissions: { demo: "auto" }, settings: [] });
  } catch (error) {
    message = (error as Error).message;
  }
  assert(message.includes("permissions.demo"), message);
  assert(message.includes("settings"), message);
});

Deno.test("validateConfig: site fields default to no rules, ask and agentTabsOnly off", () => {
  const { config } = validateConfig({});
  assertEquals(config.sitePermissions, {});
  assertEquals(config.defaultSitePermission, "ask");
  assertEquals(config.agentTabsOnly, false);
});

Deno.test("validateConfig drops reserved names from sitePermissions like other maps", () => {
  const parsed = validateConfig(
    JSON.parse(
      '{"sitePermissions": {"example.com": "off", "__proto__": "auto", "valueOf": "ask"}}',
    ),
  );
  assertEquals(parsed.config.sitePermissions, { "example.com": "off" });
  assertEquals(
    [...parsed.droppedKeys].sort(byPlace),
    [{ where: "sitePermissions", key: "__proto__" }, { where: "sitePermissions", key: "valueOf" }],
  );
});

Deno.test("validateConfig refuses a site pattern not written canonically, saying how to write it", () => {
  const message = problemOf({ sitePermissions: { "Example.COM": "off", "a b": "ask" } });
  assert(message.includes('sitePermissions.Example.COM: write it as "example.com"'), message);
  assert(message.includes("sitePermissions.a b"), message);
  assert(problemOf({ defaultSitePermission: "yes" }).includes("defaultSitePermission"));
});

Deno.test("validateConfig refuses more than 500 site rules", () => {
  const rules = Object.fromEntries(
    Array.from({ length: 501 }, (_, i) => [`site${i}.example`, "off"]),
  );
  assert(problemOf({ sitePermissions: rules }).includes("at most 500"));
  rules["site0.example"] = "auto";
  delete rules["site500.example"];
  assertEquals(
    Object.keys(validateConfig({ sitePermissions: rules }).config.sitePermissions).length,
    500,
  );
});

function problemOf(value: unknown): string {
  try {
    validateConfig(value);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}
