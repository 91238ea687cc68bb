/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { agentTabsHelp, defaultHelp, lastUseText, ruleSaved } from "./sites_model.ts";

Deno.test("lastUseText: never used, then how long ago the rule let a call through", () => {
  const now = 10 * 60_000;
  assertEquals(lastUseText({}, now), "never used");
  assertEquals(lastUseText({ lastUsedAt: now - 2_000 }, now), "last used just now");
  assertEquals(lastUseText({ lastUsedAt: now - 2 * 60_000 }, now), "last used 2 min ago");
});

Deno.test("the default's help says what each permission does to a site without a rule", () => {
  assert(defaultHelp("off").startsWith("Off: browser tools refuse"));
  assert(defaultHelp("ask").includes("Allow once, Always allow this site, Deny"));
  assert(defaultHelp("auto").includes("Ask me is safer"), defaultHelp("auto"));
});

Deno.test("the agentTabsOnly help and the saved-rule announcement", () => {
  assert(agentTabsHelp(true).includes('Drag a tab into the "hub" group'));
  assert(agentTabsHelp(false).startsWith("Off: browser tools may act on any tab."));
  assertEquals(ruleSaved("*.example.com", "auto"), "Saved: *.example.com is Auto.");
  assertEquals(ruleSaved("bank.com", "off"), "Saved: bank.com is Off.");
});
