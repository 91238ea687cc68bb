import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { parsePluginPackage } from "../protocol/plugin_manifest.ts";
import { parseDomain, scaffoldFiles, titleCase, urlPatternsFor } from "./plugin_scaffold.ts";

Deno.test("parseDomain accepts a host, a URL, a wildcard host and host:port", () => {
  assertEquals(parseDomain("app.example.com"), "app.example.com");
  assertEquals(parseDomain(" HTTPS://App.Example.com/inbox?x=1 "), "app.example.com");
  assertEquals(parseDomain("*.example.com"), "example.com");
  assertEquals(parseDomain("localhost:3000"), "localhost");
  assertEquals(parseDomain("127.0.0.1"), "127.0.0.1");
});

Deno.test("parseDomain refuses what is not a host", () => {
  for (const bad of ["", "not a domain", "-x.com", "exa_mple.com", "https://"]) {
    assertThrows(() => parseDomain(bad), Error, bad);
  }
});

Deno.test("urlPatternsFor covers subdomains, except for IPs and localhost", () => {
  assertEquals(urlPatternsFor("example.com"), ["*://example.com/*", "*://*.example.com/*"]);
  assertEquals(urlPatternsFor("localhost"), ["*://localhost/*"]);
  assertEquals(urlPatternsFor("10.0.0.2"), ["*://10.0.0.2/*"]);
});

Deno.test("the scaffold's package.json is a valid plugin manifest", () => {
  const files = scaffoldFiles({
    name: "my-app",
    domain: "app.example.com",
    displayName: "My App",
    description: "Tools for My App",
  });
  const manifest = parsePluginPackage(JSON.parse(files["package.json"]));
  assertEquals(manifest.name, "my-app");
  assertEquals(manifest.displayName, "My App");
  assertEquals(manifest.urlPatterns, ["*://app.example.com/*", "*://*.app.example.com/*"]);
  assertEquals(Object.keys(files).sort(), [
    ".gitignore",
    "README.md",
    "deno.json",
    "package.json",
    "src/index.ts",
  ]);
  const deno = JSON.parse(files["deno.json"]);
  assertEquals(deno.imports["@hub/sdk"].endsWith("/sdk/mod.ts"), true);
  assertEquals(deno.tasks.build.includes("plugin_cli/main.ts build"), true);
});

Deno.test("titleCase turns a plugin name into words", () => {
  assertEquals(titleCase("my-app"), "My App");
  assertEquals(titleCase("x"), "X");
});
