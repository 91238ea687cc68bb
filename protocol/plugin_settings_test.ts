/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import type { ConfigSchema } from "./plugin_manifest.ts";
import {
  instanceMap,
  instanceNames,
  instanceOfUrl,
  missingRequired,
  resolveSettings,
  settingsErrors,
} from "./plugin_settings.ts";

const schema: ConfigSchema = {
  apiUrl: { type: "url", label: "API", required: true },
  mode: { type: "select", label: "Mode", options: ["fast", "slow"], default: "fast" },
  verbose: { type: "boolean", label: "Verbose", default: false },
  limit: { type: "number", label: "Limit", min: 1, max: 10, integer: true, default: 5 },
};

/** The single problem for one key, or undefined. */
function errorFor(key: string, value: unknown): string | undefined {
  const problems = settingsErrors(schema, { [key]: value });
  assertEquals(problems.length <= 1, true);
  return problems[0];
}

// --- settingsErrors ---

Deno.test("settingsErrors accepts values that fit every field", () => {
  assertEquals(
    settingsErrors(schema, {
      apiUrl: "https://app.example.com",
      mode: "slow",
      verbose: true,
      limit: 10,
    }),
    [],
  );
});

Deno.test("an unknown setting key lists the plugin's known keys", () => {
  assertEquals(settingsErrors(schema, { apiURL: "x" }), [
    "apiURL: not a setting of this plugin (settings: apiUrl, mode, verbose, limit)",
  ]);
});

Deno.test("an unknown setting key of a plugin without settings says it has none", () => {
  assertEquals(settingsErrors(undefined, { x: 1 }), [
    "x: not a setting of this plugin (it has no settings)",
  ]);
});

Deno.test("a url setting accepts a single URL string", () => {
  assertEquals(errorFor("apiUrl", "http://localhost:3000"), undefined);
});

Deno.test("a url setting accepts a map of instance names to URLs", () => {
  assertEquals(
    errorFor("apiUrl", { work: "https://w.example.com", "Home 2": "https://h.example.com" }),
    undefined,
  );
});

Deno.test("a url setting refuses a string that is not a URL", () => {
  assertMatch(
    errorFor("apiUrl", "not a url")!,
    /apiUrl: instance "default": "not a url" is not a valid URL/,
  );
});

Deno.test("a url setting refuses a non-http URL", () => {
  assertMatch(
    errorFor("apiUrl", "ftp://files.test")!,
    /"ftp:\/\/files\.test" must be an http\(s\) URL/,
  );
});

Deno.test("a url setting refuses an invalid instance name", () => {
  assertMatch(
    errorFor("apiUrl", { "-bad": "https://a.test" })!,
    /instance name "-bad" must be 1-40 letters/,
  );
  assertMatch(errorFor("apiUrl", { ["x".repeat(41)]: "https://a.test" })!, /instance name/);
});

Deno.test("a url setting refuses an instance whose URL is not a string", () => {
  assertMatch(errorFor("apiUrl", { work: 42 })!, /instance "work": must be a URL string/);
});

Deno.test("a url setting refuses a list and a number", () => {
  assertMatch(errorFor("apiUrl", ["https://a.test"])!, /not a list/);
  assertMatch(errorFor("apiUrl", 5)!, /must be a URL or a map of instance names to URLs/);
});

Deno.test("a select setting must be one of its options", () => {
  assertEquals(errorFor("mode", "fast"), undefined);
  assertEquals(errorFor("mode", "medium"), 'mode: must be one of "fast", "slow"');
});

Deno.test("a boolean setting must be true or false", () => {
  assertEquals(errorFor("verbose", false), undefined);
  assertEquals(errorFor("verbose", "true"), "verbose: must be true or false");
});

Deno.test("a number setting must be a finite number", () => {
  assertEquals(errorFor("limit", "5"), "limit: must be a number");
  assertEquals(errorFor("limit", Number.NaN), "limit: must be a number");
});

Deno.test("a number setting respects min and max", () => {
  assertEquals(errorFor("limit", 0), "limit: must be at least 1");
  assertEquals(errorFor("limit", 11), "limit: must be at most 10");
  assertEquals(errorFor("limit", 1), undefined);
});

Deno.test("an integer number setting refuses fractions", () => {
  assertEquals(errorFor("limit", 2.5), "limit: must be a whole number");
});

Deno.test("null is allowed for every field (it clears the setting)", () => {
  assertEquals(
    settingsErrors(schema, { apiUrl: null, mode: null, verbose: null, limit: null }),
    [],
  );
});

Deno.test("settingsErrors reports every problem, one line per key", () => {
  assertEquals(settingsErrors(schema, { mode: "x", verbose: 1 }).length, 2);
});

// --- resolveSettings ---

Deno.test("settingsErrors refuses every Object.prototype name as a key, even own __proto__", () => {
  const keys = [...Object.getOwnPropertyNames(Object.prototype), "prototype"];
  for (const key of keys) {
    const settings = JSON.parse(`{${JSON.stringify(key)}: 5}`);
    const problems = settingsErrors(schema, settings);
    assertEquals(problems.length, 1, key);
    assertMatch(problems[0], new RegExp(`"${key}" is reserved and cannot be a setting name`));
  }
  const nested = settingsErrors(schema, JSON.parse('{"__proto__": {"limit": 3}}'));
  assertMatch(nested[0], /reserved/);
});

Deno.test("settingsErrors lists at most 10 problems, clips long keys, and counts the rest", () => {
  const settings = Object.fromEntries(
    Array.from({ length: 5_000 }, (_, i) => [`${"k".repeat(500)}${i}`, 1]),
  );
  const problems = settingsErrors(schema, settings);
  assertEquals(problems.length, 11);
  assertEquals(problems[10], "and 4990 more problems");
  assertEquals(problems.every((p) => p.length < 300), true);
});

Deno.test("a url setting refuses an instance named like an Object.prototype member", () => {
  assertMatch(
    errorFor("apiUrl", { constructor: "https://a.example.com" })!,
    /"constructor" is reserved and cannot be an instance name/,
  );
});

Deno.test("resolveSettings reads stored values of the schema's own fields only", () => {
  assertEquals(resolveSettings(schema, Object.create({ mode: "slow" })).mode, "fast");
});

Deno.test("resolveSettings applies defaults and omits fields without a value", () => {
  assertEquals(resolveSettings(schema, {}), { mode: "fast", verbose: false, limit: 5 });
});

Deno.test("resolveSettings with no schema resolves to nothing", () => {
  assertEquals(resolveSettings(undefined, { x: 1 }), {});
});

Deno.test("resolveSettings prefers stored values over defaults", () => {
  assertEquals(resolveSettings(schema, { mode: "slow", limit: 7 }), {
    mode: "slow",
    verbose: false,
    limit: 7,
  });
});

Deno.test("resolveSettings turns a stored url string into a default instance", () => {
  assertEquals(resolveSettings(schema, { apiUrl: "https://a.test" }).apiUrl, {
    default: "https://a.test",
  });
});

Deno.test("resolveSettings turns a url default string into a default instance", () => {
  const withDefault: ConfigSchema = { api: { type: "url", label: "A", default: "https://d.test" } };
  assertEquals(resolveSettings(withDefault, {}), { api: { default: "https://d.test" } });
});

Deno.test("resolveSettings keeps a stored instance map", () => {
  const map = { work: "https://w.test", home: "https://h.test" };
  assertEquals(resolveSettings(schema, { apiUrl: map }).apiUrl, map);
});

Deno.test("resolveSettings falls back to the default for a stored value that does not fit", () => {
  const resolved = resolveSettings(schema, { mode: "medium", limit: 99, verbose: "yes" });
  assertEquals(resolved, { mode: "fast", verbose: false, limit: 5 });
});

Deno.test("resolveSettings drops an invalid stored url that has no default", () => {
  assertEquals("apiUrl" in resolveSettings(schema, { apiUrl: "ftp://x.test" }), false);
});

Deno.test("resolveSettings treats a stored null as unset", () => {
  assertEquals(resolveSettings(schema, { mode: null }).mode, "fast");
});

// --- instanceNames / instanceMap / missingRequired ---

Deno.test("instanceNames lists the keys of the first url field's map", () => {
  const resolved = resolveSettings(schema, {
    apiUrl: { a: "https://a.test", b: "https://b.test" },
  });
  assertEquals(instanceNames(schema, resolved), ["a", "b"]);
});

Deno.test("instanceNames is 'default' for a single url string", () => {
  const resolved = resolveSettings(schema, { apiUrl: "https://a.test" });
  assertEquals(instanceNames(schema, resolved), ["default"]);
});

Deno.test("instanceNames is empty without a url field or without a value", () => {
  assertEquals(instanceNames({ m: schema.mode }, { m: "fast" }), []);
  assertEquals(instanceNames(schema, {}), []);
  assertEquals(instanceNames(undefined, {}), []);
});

Deno.test("instanceMap treats empty values as unset", () => {
  assertEquals(instanceMap(""), undefined);
  assertEquals(instanceMap(null), undefined);
  assertEquals(instanceMap(["x"]), undefined);
});

Deno.test("missingRequired lists required url fields without a value", () => {
  assertEquals(missingRequired(schema, resolveSettings(schema, {})), ["apiUrl"]);
  assertEquals(
    missingRequired(schema, resolveSettings(schema, { apiUrl: "https://a.test" })),
    [],
  );
});

// --- instanceOfUrl ---

Deno.test("instanceOfUrl matches same origin and a path under the instance URL", () => {
  const instances = { work: "https://app.test/work", home: "https://home.test" };
  assertEquals(instanceOfUrl(instances, "https://app.test/work"), "work");
  assertEquals(instanceOfUrl(instances, "https://app.test/work/inbox?x=1#top"), "work");
  assertEquals(instanceOfUrl(instances, "https://home.test/"), "home");
  assertEquals(instanceOfUrl(instances, "https://home.test/any/path"), "home");
  assertEquals(instanceOfUrl(instances, "https://app.test/"), undefined);
});

Deno.test("instanceOfUrl lets the longest matching instance URL win, whatever the order", () => {
  const tab = "https://app.test/org/team/board";
  assertEquals(
    instanceOfUrl({ root: "https://app.test", org: "https://app.test/org" }, tab),
    "org",
  );
  assertEquals(
    instanceOfUrl({ org: "https://app.test/org", root: "https://app.test/" }, tab),
    "org",
  );
  assertEquals(
    instanceOfUrl({
      org: "https://app.test/org",
      team: "https://app.test/org/team",
      root: "https://app.test",
    }, tab),
    "team",
  );
  assertEquals(
    instanceOfUrl({ org: "https://app.test/org", root: "https://app.test" }, "https://app.test/x"),
    "root",
  );
});

Deno.test("instanceOfUrl needs the same origin: scheme, host and port", () => {
  const instances = { work: "https://app.test/work" };
  assertEquals(instanceOfUrl(instances, "https://other.test/work"), undefined);
  assertEquals(instanceOfUrl(instances, "http://app.test/work"), undefined);
  assertEquals(instanceOfUrl(instances, "https://app.test:8443/work"), undefined);
  assertEquals(instanceOfUrl(instances, "https://sub.app.test/work"), undefined);
  assertEquals(
    instanceOfUrl({ local: "http://localhost:3000" }, "http://localhost:3000/a"),
    "local",
  );
  assertEquals(
    instanceOfUrl({ local: "http://localhost:3000" }, "http://localhost:3001/a"),
    undefined,
  );
});

Deno.test("instanceOfUrl gives undefined for a bad tab URL and skips bad instance URLs", () => {
  assertEquals(instanceOfUrl({ work: "https://app.test" }, "not a url"), undefined);
  assertEquals(instanceOfUrl({ work: "https://app.test" }, ""), undefined);
  assertEquals(instanceOfUrl({ broken: "::nope::" }, "https://app.test/"), undefined);
  assertEquals(
    instanceOfUrl({ broken: "::nope::", work: "https://app.test" }, "https://app.test/a"),
    "work",
  );
  assertEquals(instanceOfUrl({}, "https://app.test/"), undefined);
});

Deno.test("instanceOfUrl ignores a trailing slash on the instance URL", () => {
  const instances = { work: "https://app.test/work/" };
  assertEquals(instanceOfUrl(instances, "https://app.test/work"), "work");
  assertEquals(instanceOfUrl(instances, "https://app.test/work/"), "work");
  assertEquals(instanceOfUrl(instances, "https://app.test/work/page"), "work");
  assertEquals(instanceOfUrl({ root: "https://app.test/" }, "https://app.test/a"), "root");
});

Deno.test('instanceOfUrl matches whole path segments: "/work" is not "/workshop"', () => {
  const instances = { work: "https://app.test/work" };
  assertEquals(instanceOfUrl(instances, "https://app.test/workshop"), undefined);
  assertEquals(instanceOfUrl(instances, "https://app.test/workshop/tools"), undefined);
  assertEquals(
    instanceOfUrl(
      { work: "https://app.test/work", shop: "https://app.test/workshop" },
      "https://app.test/workshop/tools",
    ),
    "shop",
  );
});
