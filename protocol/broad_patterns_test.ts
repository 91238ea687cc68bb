/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { broadNotice, broadPatterns, broadReach, broadWarning } from "./broad_patterns.ts";

Deno.test("patterns that match every site are broad", () => {
  for (const p of ["<all_urls>", "*://*/*", "https://*/*", "http://*/*", "*://*/login*"]) {
    assertEquals(broadReach(p), "every website you visit", p);
  }
});

Deno.test("a wildcard over a public suffix is broad; a site's own subdomains are not", () => {
  assertEquals(broadReach("*://*.com/*"), "every .com website you visit");
  assertEquals(broadReach("https://*.co.uk/*"), "every .co.uk website you visit");
  assertEquals(broadReach("https://*.example.com/*"), undefined);
  assertEquals(broadReach("https://*.github.io/*"), undefined);
  assertEquals(broadReach("https://jira.example.com/*"), undefined);
  assertEquals(broadReach("not a pattern"), undefined);
});

Deno.test("file patterns over every file are named as files", () => {
  assertEquals(broadReach("file:///*"), "files on this computer");
  assertEquals(broadReach("file:///home/me/notes/*"), undefined);
});

Deno.test("the warning says where it runs, in words, and names the patterns", () => {
  assertEquals(broadWarning(["https://x.test/*"]), undefined);
  assertEquals(
    broadWarning(["https://x.test/*", "<all_urls>", "*://*.com/*"]),
    "Runs on every website you visit (<all_urls>, *://*.com/*).",
  );
  assertEquals(
    broadWarning(["*://*.com/*", "*://*.org/*"]),
    "Runs on every .com website you visit and on every .org website you visit (*://*.com/*, " +
      "*://*.org/*).",
  );
  assertEquals(broadPatterns(["https://*/*", "https://a.test/*"]), ["https://*/*"]);
});

Deno.test("broadNotice: the warning and what allowing means, with or without a subject", () => {
  const consequence =
    "Once allowed, its code can read and change those pages while you are logged in.";
  assertEquals(
    broadNotice(["<all_urls>"]),
    `Runs on every website you visit (<all_urls>). ${consequence}`,
  );
  assertEquals(
    broadNotice(["*://*.com/*"], 'plugin "x"'),
    `plugin "x" runs on every .com website you visit (*://*.com/*). ${consequence}`,
  );
  assertEquals(broadNotice(["https://a.example/*"]), undefined);
});
