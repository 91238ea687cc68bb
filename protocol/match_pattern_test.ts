/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertThrows } from "../tests/helpers/assert.ts";
import {
  matchPatternError,
  parseMatchPattern,
  patternMatches,
  urlMatches,
} from "./match_pattern.ts";

// --- parseMatchPattern: valid patterns ---

Deno.test("parseMatchPattern returns the all_urls marker for <all_urls>", () => {
  assertEquals(parseMatchPattern("<all_urls>"), "all_urls");
});

Deno.test("parseMatchPattern splits a wildcard-scheme subdomain pattern", () => {
  assertEquals(parseMatchPattern("*://*.example.com/*"), {
    source: "*://*.example.com/*",
    scheme: "*",
    host: "*.example.com",
    port: undefined,
    path: "/*",
  });
});

Deno.test("parseMatchPattern accepts an IPv4 host without a port", () => {
  const parsed = parseMatchPattern("http://127.0.0.1/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.scheme, parsed.host, parsed.port, parsed.path], [
    "http",
    "127.0.0.1",
    undefined,
    "/*",
  ]);
});

Deno.test("parseMatchPattern keeps an explicit port and a deeper path", () => {
  const parsed = parseMatchPattern("https://example.com:8443/app/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.host, parsed.port, parsed.path], ["example.com", "8443", "/app/*"]);
});

Deno.test("parseMatchPattern accepts a file pattern with an empty host", () => {
  const parsed = parseMatchPattern("file:///tmp/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.scheme, parsed.host, parsed.path], ["file", "", "/tmp/*"]);
});

Deno.test("parseMatchPattern accepts a bracketed IPv6 host and does not mistake it for a port", () => {
  const parsed = parseMatchPattern("http://[::1]/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.host, parsed.port], ["[::1]", undefined]);
});

Deno.test("parseMatchPattern reads the port after a bracketed IPv6 host", () => {
  const parsed = parseMatchPattern("http://[::1]:8080/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.host, parsed.port], ["[::1]", "8080"]);
});

Deno.test("parseMatchPattern accepts a wildcard port and lowercases the host", () => {
  const parsed = parseMatchPattern("http://LocalHost:*/*");
  assert(parsed !== "all_urls");
  assertEquals([parsed.host, parsed.port], ["localhost", "*"]);
});

// --- parseMatchPattern: invalid patterns, each with its reason ---

const invalid: [string, string, RegExp][] = [
  ["missing scheme separator", "example.com/*", /needs "<scheme>:\/\/<host>\/<path>"/],
  ["ftp scheme", "ftp://example.com/*", /scheme must be one of \*, http, https, file, not "ftp"/],
  ["chrome scheme", "chrome://settings/*", /not "chrome"/],
  ["missing path", "https://example.com", /needs a path after the host/],
  ["star glued to a host", "*://*foo.com/*", /"\*" in the host may only be the whole host/],
  ["star in the middle of a host", "*://a.*.com/*", /"\*" in the host may only be the whole host/],
  ["empty host", "http:///*", /the host is missing/],
  ["non-numeric port", "http://example.com:abc/*", /"abc" is not a valid port/],
  ["empty port", "http://example.com:/*", /"" is not a valid port/],
  ["port above 65535", "http://example.com:65536/*", /port 65536 is above 65535/],
  ["file pattern with a host", "file://server/share/*", /a file pattern has no host/],
  ["host with invalid characters", "http://exa_mple.com/*", /"exa_mple.com" is not a valid host/],
];

for (const [what, source, reason] of invalid) {
  Deno.test(`parseMatchPattern rejects a pattern with ${what}`, () => {
    assertThrows(() => parseMatchPattern(source), (error: Error) => {
      assertMatch(error.message, reason);
      assert(error.message.startsWith(`"${source}" is not a valid match pattern`));
      assertMatch(error.message, /example: "\*:\/\/\*\.example\.com\/\*"/);
      return true;
    });
  });
}

Deno.test("matchPatternError returns undefined for a valid pattern and the reason otherwise", () => {
  assertEquals(matchPatternError("https://example.com/*"), undefined);
  assertMatch(matchPatternError("ftp://example.com/*") ?? "", /not "ftp"/);
});

// --- urlMatches / patternMatches ---

Deno.test("<all_urls> matches http, https and file but not other schemes", () => {
  assert(urlMatches("http://a.test/", ["<all_urls>"]));
  assert(urlMatches("https://a.test/x", ["<all_urls>"]));
  assert(urlMatches("file:///tmp/a", ["<all_urls>"]));
  assert(!urlMatches("ftp://a.test/", ["<all_urls>"]));
  assert(!urlMatches("chrome://settings/", ["<all_urls>"]));
});

Deno.test("a * scheme matches only http and https", () => {
  const include = ["*://*/*"];
  assert(urlMatches("http://example.com/", include));
  assert(urlMatches("https://example.com/", include));
  assert(!urlMatches("file:///tmp/x", include));
  assert(!urlMatches("ws://example.com/", include));
});

Deno.test("an explicit scheme matches only that scheme", () => {
  assert(urlMatches("https://example.com/", ["https://example.com/*"]));
  assert(!urlMatches("http://example.com/", ["https://example.com/*"]));
});

Deno.test("*.example.com matches the bare domain and nested subdomains", () => {
  const include = ["*://*.example.com/*"];
  assert(urlMatches("https://example.com/", include));
  assert(urlMatches("https://a.example.com/", include));
  assert(urlMatches("https://a.b.example.com/x", include));
});

Deno.test("*.example.com does not match a domain that merely ends with the same text", () => {
  assert(!urlMatches("https://badexample.com/", ["*://*.example.com/*"]));
  assert(!urlMatches("https://example.com.evil.test/", ["*://*.example.com/*"]));
});

Deno.test("an exact host does not match its subdomains", () => {
  assert(!urlMatches("https://www.example.com/", ["*://example.com/*"]));
});

Deno.test("host matching ignores case", () => {
  assert(urlMatches("https://EXAMPLE.com/", ["*://Example.COM/*"]));
});

Deno.test("a pattern without a port matches any port", () => {
  assert(urlMatches("http://127.0.0.1:9515/x", ["http://127.0.0.1/*"]));
  assert(urlMatches("http://127.0.0.1/x", ["http://127.0.0.1/*"]));
  assert(urlMatches("http://[::1]:3000/x", ["http://[::1]/*"]));
});

Deno.test("a pattern with a port matches only that port", () => {
  const include = ["https://example.com:8443/app/*"];
  assert(urlMatches("https://example.com:8443/app/page", include));
  assert(!urlMatches("https://example.com/app/page", include));
  assert(!urlMatches("https://example.com:9443/app/page", include));
});

Deno.test("a pattern with the scheme's default port matches a URL without a port", () => {
  assert(urlMatches("https://example.com/x", ["https://example.com:443/*"]));
  assert(urlMatches("http://example.com/x", ["http://example.com:80/*"]));
});

Deno.test("a * port matches any port", () => {
  assert(urlMatches("http://localhost:1234/", ["http://localhost:*/*"]));
});

Deno.test("the path glob must match the whole path", () => {
  const include = ["https://example.com/app/*"];
  assert(urlMatches("https://example.com/app/", include));
  assert(urlMatches("https://example.com/app/a/b", include));
  assert(!urlMatches("https://example.com/other/app/", include));
  assert(!urlMatches("https://example.com/application", include));
});

Deno.test("the path glob sees the query string", () => {
  const include = ["https://example.com/search?q=*"];
  assert(urlMatches("https://example.com/search?q=cats", include));
  assert(!urlMatches("https://example.com/search", include));
  assert(urlMatches("https://example.com/app/x?tab=1", ["https://example.com/app/*"]));
});

Deno.test("regex characters in a path are matched literally", () => {
  assert(urlMatches("https://example.com/a.b", ["https://example.com/a.b"]));
  assert(!urlMatches("https://example.com/aXb", ["https://example.com/a.b"]));
});

Deno.test("a file pattern matches paths on the local file system", () => {
  assert(urlMatches("file:///tmp/a.txt", ["file:///tmp/*"]));
  assert(!urlMatches("file:///etc/passwd", ["file:///tmp/*"]));
});

Deno.test("urlMatches needs one include to match and no exclude to match", () => {
  const include = ["*://example.com/*", "*://other.test/*"];
  const exclude = ["*://example.com/admin/*"];
  assert(urlMatches("https://other.test/", include, exclude));
  assert(urlMatches("https://example.com/home", include, exclude));
  assert(!urlMatches("https://example.com/admin/users", include, exclude));
  assert(!urlMatches("https://third.test/", include, exclude));
});

Deno.test("urlMatches with no include patterns matches nothing", () => {
  assertEquals(urlMatches("https://example.com/", []), false);
});

Deno.test("urlMatches returns false for a URL that cannot be parsed", () => {
  assertEquals(urlMatches("not a url", ["<all_urls>"]), false);
});

Deno.test("an invalid pattern in the lists never matches and never throws", () => {
  assertEquals(urlMatches("ftp://example.com/", ["ftp://example.com/*"]), false);
  assert(urlMatches("https://example.com/", ["https://example.com/*"], ["bogus"]));
});

Deno.test("patternMatches works on a pre-parsed pattern", () => {
  const pattern = parseMatchPattern("*://*.example.com/*");
  assert(patternMatches(pattern, new URL("https://x.example.com/")));
  assert(!patternMatches(pattern, new URL("https://x.example.org/")));
});
