/// <reference lib="deno.ns" />
// The site rules' contract with expected values (not "the same as another copy"): each pattern
// form of issue 31, the most specific rule winning, ports, schemes, IPv6, IDN, trailing dots,
// blob:/filesystem: URLs by their inner origin, URLs with no site, and what a pattern may not be.
import { assertEquals } from "../tests/helpers/assert.ts";
import type { Permission } from "./permission.ts";
import {
  compileSiteRules,
  decideSite,
  parseSitePattern,
  siteGatedMethod,
  siteOf,
  type SiteRules,
} from "./site_permissions.ts";

/** [url, rules, expected permission, the deciding pattern (absent: the default decided)]. */
type Row = [string, SiteRules, Permission, string?];

const ROWS: Row[] = [
  // a host: exactly that host, any port, http and https
  ["https://example.com/a", { "example.com": "off" }, "off", "example.com"],
  ["http://example.com:8080/", { "example.com": "off" }, "off", "example.com"],
  ["https://app.example.com/", { "example.com": "off" }, "ask"],
  ["https://notexample.com/", { "example.com": "off" }, "ask"],
  // IP addresses and localhost are hosts; localhost does not cover [::1]
  ["http://127.0.0.1:3000/", { "127.0.0.1": "off" }, "off", "127.0.0.1"],
  ["http://localhost:3000/", { "localhost": "off" }, "off", "localhost"],
  ["http://[::1]:3000/", { "localhost": "off" }, "ask"],
  ["http://[::1]:3000/", { "[::1]": "off" }, "off", "[::1]"],
  ["http://[0:0::1]/", { "[::1]": "off" }, "off", "[::1]"],
  // *. covers subdomains, not the apex
  ["https://a.b.example.com/", { "*.example.com": "off" }, "off", "*.example.com"],
  ["https://example.com/", { "*.example.com": "off" }, "ask"],
  // a host with a port: that port only
  ["http://127.0.0.1:8080/", { "127.0.0.1:8080": "off" }, "off", "127.0.0.1:8080"],
  ["http://127.0.0.1:8081/", { "127.0.0.1:8080": "off" }, "ask"],
  ["https://example.com/", { "example.com:443": "off" }, "off", "example.com:443"],
  ["http://example.com/", { "example.com:443": "off" }, "ask"],
  // a full origin: exactly that scheme, host and port
  [
    "https://app.example.com/",
    { "https://app.example.com": "off" },
    "off",
    "https://app.example.com",
  ],
  ["http://app.example.com/", { "https://app.example.com": "off" }, "ask"],
  ["https://app.example.com:8443/", { "https://app.example.com": "off" }, "ask"],
  [
    "https://app.example.com:8443/",
    { "https://app.example.com:8443": "auto" },
    "auto",
    "https://app.example.com:8443",
  ],
  // the most specific wins: origin > host:port > host > longer *. (with a port) > shorter *.
  [
    "https://app.example.com/",
    { "app.example.com": "ask", "https://app.example.com": "off", "*.example.com": "auto" },
    "off",
    "https://app.example.com",
  ],
  [
    "https://app.example.com/",
    { "app.example.com": "ask", "app.example.com:443": "off" },
    "off",
    "app.example.com:443",
  ],
  [
    "https://app.example.com/",
    { "*.example.com": "off", "app.example.com": "auto" },
    "auto",
    "app.example.com",
  ],
  [
    "https://x.b.example.com/",
    { "*.example.com": "off", "*.b.example.com": "auto" },
    "auto",
    "*.b.example.com",
  ],
  [
    "https://x.example.com:8/",
    { "*.example.com": "off", "*.example.com:8": "auto" },
    "auto",
    "*.example.com:8",
  ],
  // one host, one site: case, userinfo, IDN and trailing dots name the same host
  ["https://EXAMPLE.com/", { "example.com": "off" }, "off", "example.com"],
  ["https://user:pw@example.com/", { "example.com": "off" }, "off", "example.com"],
  ["https://bücher.de/", { "xn--bcher-kva.de": "off" }, "off", "xn--bcher-kva.de"],
  ["https://bank.com./", { "bank.com": "off" }, "off", "bank.com"],
  ["https://bank.com../", { "bank.com": "off" }, "off", "bank.com"],
  ["http://localhost..:8080/", { "localhost": "off" }, "off", "localhost"],
  // blob: and filesystem: URLs are their inner origin's documents
  ["blob:https://bank.com/8f0c", { "bank.com": "off" }, "off", "bank.com"],
  ["blob:http://localhost:3000/8f0c", { "localhost:3000": "off" }, "off", "localhost:3000"],
  ["filesystem:https://bank.com/temporary/a.txt", { "bank.com": "off" }, "off", "bank.com"],
];

Deno.test("a URL under rules gets the expected permission and deciding pattern", () => {
  for (const [url, rules, permission, pattern] of ROWS) {
    const decision = decideSite(url, rules, "ask");
    assertEquals(decision?.permission, permission, url);
    assertEquals(decision?.pattern, pattern, `${url} ${JSON.stringify(rules)}`);
  }
});

Deno.test("compiled rules decide as decideSite, and a site no rule matches gets the fallback", () => {
  const compiled = compileSiteRules({ "example.com": "off" }, "auto");
  assertEquals(compiled.decide("https://example.com/")?.permission, "off");
  assertEquals(compiled.decide("https://other.com/")?.permission, "auto");
  assertEquals(compiled.decide("https://other.com/")?.pattern, undefined);
  assertEquals(compileSiteRules(undefined).decide("https://other.com/")?.permission, "ask");
  // ties keep the order written; a key that does not parse is skipped
  assertEquals(
    decideSite("https://a.com/", { "a.com:x": "off", "a.com": "auto" })?.permission,
    "auto",
  );
});

Deno.test("a URL with no site of its own has no decision", () => {
  const urls = [
    undefined,
    "",
    "about:blank",
    "about:srcdoc",
    "chrome://newtab/",
    "data:text/html,x",
    "file:///tmp/a.html",
    "javascript:alert(1)",
    "blob:null/8f0c",
    "blob:blob:https://bank.com/x",
    "ws://example.com/",
    "not a url",
  ];
  for (const url of urls) {
    assertEquals(decideSite(url, { "bank.com": "off" }, "off"), undefined, String(url));
  }
});

Deno.test("a site's key and origin: default ports left out, others kept, trailing dots gone", () => {
  assertEquals(siteOf("https://App.Example.com./x"), {
    origin: "https://app.example.com",
    scheme: "https",
    host: "app.example.com",
    port: 443,
    key: "app.example.com",
  });
  assertEquals(siteOf("http://127.0.0.1:8080/")?.key, "127.0.0.1:8080");
  assertEquals(siteOf("http://127.0.0.1:80/")?.key, "127.0.0.1");
  assertEquals(siteOf("http://[::1]:3000/")?.origin, "http://[::1]:3000");
  assertEquals(siteOf("blob:https://bank.com:8443/x")?.origin, "https://bank.com:8443");
});

Deno.test("a pattern is stored in one canonical form", () => {
  const cases: [string, string][] = [
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    ["example.com..", "example.com"],
    ["*.Example.com", "*.example.com"],
    ["127.0.0.1:8080", "127.0.0.1:8080"],
    ["[0:0::1]:3000", "[::1]:3000"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["HTTP://Example.com", "http://example.com"],
    ["https://app.example.com:443", "https://app.example.com"],
    ["https://app.example.com:8443/", "https://app.example.com:8443"],
    ["https://bank.com../", "https://bank.com"],
  ];
  for (const [text, canonical] of cases) {
    const parsed = parseSitePattern(text);
    assertEquals(parsed.ok && parsed.canonical, canonical, text);
  }
});

Deno.test("a pattern that is not one of the forms is refused with its problem", () => {
  const cases: [string, string][] = [
    ["", "is empty"],
    ["*", '"*"'],
    ["*.", "not a host"],
    ["a.*.com", '"*"'],
    ["*.1.2.3.4", "IP address"],
    ["*.[::1]", "IP address"],
    ["example.com/path", "must be a host"],
    ["example.com:0", "port outside"],
    ["example.com:65536", "not a host"],
    ["a..com", "empty label"],
    [".example.com", "empty label"],
    ["https://a..com", "empty label"],
    ["ftp://example.com", "http:// or https://"],
    ["https://example.com/path", "origin only"],
    ["https://user@example.com", "origin only"],
    ["x".repeat(301), "longer than 300"],
  ];
  for (const [text, problem] of cases) {
    const parsed = parseSitePattern(text);
    assertEquals(parsed.ok, false, text);
    if (!parsed.ok && !parsed.problem.includes(problem)) {
      throw new Error(`${text}: "${parsed.problem}" does not say ${problem}`);
    }
  }
});

Deno.test("site rules apply to every browser method but listings, download records and extension.*", () => {
  for (const method of ["tabs.list", "windows.list", "downloads.list", "extension.reload"]) {
    assertEquals(siteGatedMethod(method), false, method);
  }
  for (const method of ["tabs.navigate", "tabs.open", "tabs.focus", "page.text", "dom.click"]) {
    assertEquals(siteGatedMethod(method), true, method);
  }
});
