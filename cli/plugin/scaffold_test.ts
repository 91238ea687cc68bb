import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parsePluginPackage } from "../../protocol/plugin_manifest.ts";
import { sdkRange, VERSION } from "../../protocol/version.ts";
import {
  parseDomain,
  scaffoldFiles,
  type ScaffoldInput,
  titleCase,
  urlPatternsFor,
} from "./scaffold.ts";

const INPUT: ScaffoldInput = {
  name: "my-app",
  domain: "app.example.com",
  displayName: "My App",
  description: "Tools for My App",
};

/** This checkout, and the absolute paths of a machine that must never reach a scaffold. */
const HUB_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
const MACHINE_PATHS = [HUB_ROOT, "/tmp", "/work", "/home", "/usr", "/root", "/Users", "file:"];

/** `file: text` for each line of the files that names an absolute path (none expected). */
function absolutePathLines(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) =>
    text.split("\n")
      .filter((line) => MACHINE_PATHS.some((path) => line.includes(path)))
      .map((line) => `${file}: ${line}`)
  );
}

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
  const files = scaffoldFiles(INPUT);
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
});

Deno.test("the scaffold depends on a caret range of this SDK and runs hub-plugin from PATH", () => {
  const files = scaffoldFiles(INPUT);
  const range = sdkRange();
  assertEquals(range, `^${VERSION.split(".").slice(0, 2).join(".")}`);
  const deno = JSON.parse(files["deno.json"]);
  assertEquals(deno.imports, { "@tabhub/sdk": `npm:@tabhub/sdk@${range}`, zod: "npm:zod@^4.1.0" });
  assertEquals(deno.nodeModulesDir, "auto");
  assertEquals(deno.tasks, {
    build: "hub-plugin build",
    watch: "hub-plugin build --watch",
    inspect: "hub-plugin inspect",
    readme: "hub-plugin readme",
    check: "deno check src/",
  });
  const pkg = JSON.parse(files["package.json"]);
  assertEquals(pkg.peerDependencies, { "@tabhub/sdk": range });
  assertEquals(pkg.peerDependenciesMeta, { "@tabhub/sdk": { optional: true } });
  assertEquals(pkg.dependencies, undefined, "installing the plugin installs no SDK");
  assert(
    files["src/index.ts"].startsWith(
      `import { definePlugin, defineTool, log, ToolError, z } from "@tabhub/sdk";`,
    ),
  );
  assert(files["README.md"].includes("deno task hub-plugin build --dir <this folder>"));
  assert(files["README.md"].includes('hub README (section "Plugins")'));
});

Deno.test("no file of the scaffold names an absolute path", () => {
  const files = scaffoldFiles(INPUT);
  assertEquals(absolutePathLines(files), []);
  assertEquals(
    absolutePathLines({ "x.json": `{ "a": "${HUB_ROOT}/sdk/mod.ts" }` }).length,
    1,
    "the check finds a path of this checkout",
  );
});

Deno.test("titleCase turns a plugin name into words", () => {
  assertEquals(titleCase("my-app"), "My App");
  assertEquals(titleCase("x"), "X");
});
