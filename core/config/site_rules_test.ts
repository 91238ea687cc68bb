import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { applySiteRule, siteRuleKey } from "./site_rules.ts";
import { defaultConfig } from "./schema.ts";

Deno.test("siteRuleKey answers each pattern form canonically", () => {
  assertEquals(siteRuleKey("Example.COM"), { ok: true, key: "example.com" });
  assertEquals(siteRuleKey("*.Example.com"), { ok: true, key: "*.example.com" });
  assertEquals(siteRuleKey("127.0.0.1:8080"), { ok: true, key: "127.0.0.1:8080" });
  assertEquals(siteRuleKey("https://App.example.com:8443"), {
    ok: true,
    key: "https://app.example.com:8443",
  });
  assertEquals(siteRuleKey("localhost"), { ok: true, key: "localhost" });
});

Deno.test("siteRuleKey says what is wrong and how to write a pattern", () => {
  const bad = siteRuleKey("https://example.com/path");
  assert(!bad.ok);
  assert(bad.problem.startsWith('The site pattern "https://example.com/path" must be an origin'));
  assert(bad.problem.includes('"*.example.com"'), bad.problem);
  const star = siteRuleKey("a.*.example.com");
  assert(!star.ok && star.problem.includes('"*"'));
  const reserved = siteRuleKey("constructor");
  assert(!reserved.ok && reserved.problem.includes("reserved"), JSON.stringify(reserved));
});

Deno.test("applySiteRule sets, replaces and removes one rule", () => {
  const config = defaultConfig();
  assertEquals(applySiteRule(config, "example.com", "off"), false);
  assertEquals(applySiteRule(config, "example.com", "auto"), true);
  assertEquals(config.sitePermissions, { "example.com": "auto" });
  assertEquals(applySiteRule(config, "example.com", null), true);
  assertEquals(applySiteRule(config, "example.com", null), false);
  assertEquals(config.sitePermissions, {});
});

Deno.test("applySiteRule keeps at most 500 rules but still changes an existing one", () => {
  const config = defaultConfig();
  for (let i = 0; i < 500; i++) config.sitePermissions[`s${i}.example`] = "off";
  assertThrows(() => applySiteRule(config, "new.example", "ask"), Error, "500 rules");
  assertEquals(applySiteRule(config, "s1.example", "auto"), true);
  assertEquals(config.sitePermissions["s1.example"], "auto");
  assert(!("new.example" in config.sitePermissions));
});
