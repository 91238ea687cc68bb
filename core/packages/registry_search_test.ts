import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parseSearchOutput, searchTerms, toSearchResult } from "./registry_search.ts";

Deno.test("searchTerms: always hub-plugin, then the query's words", () => {
  assertEquals(searchTerms(undefined), ["hub-plugin"]);
  assertEquals(searchTerms("  "), ["hub-plugin"]);
  assertEquals(searchTerms("Jira  cloud"), ["hub-plugin", "Jira", "cloud"]);
  assertEquals(searchTerms("hub-plugin x"), ["hub-plugin", "x"]);
  assertEquals(searchTerms("a\u0000b\nc"), ["hub-plugin", "a", "b", "c"]);
  assertEquals(searchTerms("a b c d e f g h i j k l").length, 11);
  assertThrows(() => searchTerms("x".repeat(201)), /at most 200/);
});

Deno.test("toSearchResult: plugin names only, official first, npm's and verdaccio's shapes", () => {
  const npmShape = {
    name: "hub-plugin-b",
    version: "1.0.0",
    description: " B ",
    author: { name: "Ann" },
  };
  const verdaccioShape = {
    name: "@tabhub/hub-plugin-a",
    "dist-tags": { latest: "2.0.0" },
    author: "Bob <b@x>",
  };
  const entries = [
    npmShape,
    verdaccioShape,
    { name: "hub-plugin-c", version: "0.1.0", publisher: { username: "cat" } },
    { name: "hub-plugin-b", version: "9.9.9" },
    { name: "left-pad", version: "1.0.0" },
    { name: "hub-plugin-noversion" },
    { name: 42 },
  ];
  const result = toSearchResult(" q ", entries, new Map([["hub-plugin-c", "0.0.9"]]));
  assertEquals(result, {
    query: "q",
    packages: [
      { name: "@tabhub/hub-plugin-a", version: "2.0.0", official: true, author: "Bob <b@x>" },
      { name: "hub-plugin-b", version: "1.0.0", official: false, description: "B", author: "Ann" },
      {
        name: "hub-plugin-c",
        version: "0.1.0",
        official: false,
        author: "cat",
        installedVersion: "0.0.9",
      },
    ],
  });
  const many = Array.from(
    { length: 300 },
    (_, i) => ({ name: `hub-plugin-${i}`, version: "1.0.0" }),
  );
  assertEquals(toSearchResult(undefined, many, new Map()).packages.length, 250);
});

Deno.test("parseSearchOutput: npm's JSON list, with verdaccio's blank lines", () => {
  assertEquals(parseSearchOutput('[\n\n{"name":"a"}\n\n,\n\n{"name":"b"}\n]'), [{ name: "a" }, {
    name: "b",
  }]);
  assertEquals(parseSearchOutput("No matches found"), undefined);
  assertEquals(parseSearchOutput('{"error":{}}'), undefined);
});
