/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { decideSite } from "../../../protocol/site_permissions.ts";
import type { Permission } from "../../../protocol/permission.ts";
import { createSiteAccess } from "./site_access.ts";

Deno.test("before any sync every site is ask, agentTabsOnly is off, and non-web pages have no site", () => {
  const sites = createSiteAccess();
  assertEquals(sites.decide("https://app.example.com/x")?.permission, "ask");
  assertEquals(sites.decide("https://app.example.com/x")?.pattern, undefined);
  assertEquals(sites.agentTabsOnly(), false);
  for (
    const url of ["about:blank", "chrome://newtab/", "data:text/html,x", "file:///a", undefined]
  ) {
    assertEquals(sites.decide(url), undefined, String(url));
  }
});

Deno.test("the most specific rule wins, as decideSite decides", () => {
  const rules: Record<string, Permission> = {
    "*.example.com": "off",
    "app.example.com": "auto",
    "app.example.com:8443": "ask",
    "https://app.example.com:9000": "off",
    "*.b.example.com": "auto",
    "localhost": "auto",
    "127.0.0.1:8080": "off",
  };
  const sites = createSiteAccess();
  sites.update({ sitePermissions: rules, defaultSitePermission: "ask", agentTabsOnly: true });
  assert(sites.agentTabsOnly());
  const expected: [string, string][] = [
    ["https://app.example.com/", "auto"],
    ["http://app.example.com:8443/a", "ask"],
    ["https://app.example.com:9000/", "off"],
    ["http://app.example.com:9000/", "auto"],
    ["https://x.b.example.com/", "auto"],
    ["https://b.example.com/", "off"],
    ["https://example.com/", "ask"],
    ["http://localhost:3000/", "auto"],
    ["http://[::1]:3000/", "ask"],
    ["http://127.0.0.1:8080/", "off"],
    ["http://127.0.0.1:8081/", "ask"],
    ["https://bank.com./", "ask"],
  ];
  for (const [url, permission] of expected) {
    assertEquals(sites.decide(url), decideSite(url, rules, "ask"), url);
    assertEquals(sites.decide(url)?.permission, permission, url);
  }
  assertEquals(sites.decide("https://x.b.example.com/")?.pattern, "*.b.example.com");
});

Deno.test("an update replaces the rules and the default; absent fields go back to the defaults", () => {
  const sites = createSiteAccess();
  sites.update({ sitePermissions: { "example.com": "off" }, defaultSitePermission: "auto" });
  assertEquals(sites.decide("https://example.com/")?.permission, "off");
  assertEquals(sites.decide("https://other.com/")?.permission, "auto");
  sites.update({});
  assertEquals(sites.decide("https://example.com/")?.permission, "ask");
  assertEquals(sites.decide("https://other.com/")?.permission, "ask");
  assertEquals(sites.agentTabsOnly(), false);
});
