import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { isOfficial, isPluginPackageName, parseName, parseSpec } from "./package_names.ts";
import { isPackageError } from "./package_error.ts";

Deno.test("parseSpec: shorthand, full and scoped names, with an optional version", () => {
  assertEquals(parseSpec(" alpha "), {
    candidates: ["@tabhub/hub-plugin-alpha", "hub-plugin-alpha"],
    range: undefined,
    shorthand: true,
  });
  assertEquals(parseSpec("my-app@1.2.0").range, "1.2.0");
  assertEquals(parseSpec("hub-plugin-x").candidates, ["hub-plugin-x"]);
  assertEquals(parseSpec("hub-plugin-x@^2").range, "^2");
  assertEquals(parseSpec("@acme/hub-plugin-x@next"), {
    candidates: ["@acme/hub-plugin-x"],
    range: "next",
    shorthand: false,
  });
  assertEquals(parseSpec("@tabhub/hub-plugin-x.y").candidates, ["@tabhub/hub-plugin-x.y"]);
});

Deno.test("parseSpec: names npm or the plugin patterns refuse are INVALID_NAME with the fix", () => {
  const cases: [string, RegExp][] = [
    ["", /Name the plugin package/],
    ["   ", /Name the plugin package/],
    ["../dir", /looks like a path or URL.*localPlugins\.add/],
    ["/abs/dir", /path or URL/],
    ["https://x.test/p.tgz", /path or URL/],
    ["git+ssh://host/repo", /path or URL/],
    ["file:../x", /path or URL/],
    ["Alpha", /lowercase/],
    ["@acme/tool", /did you mean "@acme\/hub-plugin-tool"/],
    ["@acme/hub-plugin-", /naming rules/],
    ["hub-plugin-", /naming rules/],
    ["hub-plugin-x y", /naming rules/],
    ["_private", /naming rules/],
    ["alpha@", /is not a version, range or dist-tag/],
    ["alpha@not a range!", /is not a version, range or dist-tag/],
    [`hub-plugin-${"x".repeat(210)}`, /at most 214/],
    ["a".repeat(300), /at most 214/],
  ];
  for (const [spec, pattern] of cases) {
    assertThrows(() => parseSpec(spec), (error: Error) => {
      assert(isPackageError(error), spec);
      assertEquals(error.code, "INVALID_NAME");
      assert(pattern.test(error.message), `${spec}: ${error.message}`);
      assert(error.message.length <= 600);
      return true;
    });
  }
});

Deno.test("parseName refuses a version; plugin package names and the official scope", () => {
  assertThrows(() => parseName("alpha@1", "remove"), /remove takes a name without a version/);
  assertEquals(parseName("alpha", "remove").shorthand, true);
  assert(isPluginPackageName("hub-plugin-a"));
  assert(isPluginPackageName("@s/hub-plugin-a"));
  assert(!isPluginPackageName("hub-plugins-a"));
  assert(!isPluginPackageName("@s/hub-plugin"));
  assert(!isPluginPackageName("a/hub-plugin-a"));
  assert(isOfficial("@tabhub/hub-plugin-a"));
  assert(!isOfficial("@tabhubx/hub-plugin-a"));
});
