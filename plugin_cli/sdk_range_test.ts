import { join } from "node:path";
import { assertEquals, assertMatch, assertThrows } from "../tests/helpers/assert.ts";
import { UserError } from "../core/cli/user_error.ts";
import { SDK_VERSION, sdkRange } from "../protocol/version.ts";
import {
  checkSdkDeclarations,
  denoJsonDeclarations,
  packageJsonDeclarations,
  readSdkDeclarations,
  type SdkDeclaration,
} from "./sdk_range.ts";

const inDeno = (spec: string): SdkDeclaration[] =>
  denoJsonDeclarations({ imports: { "@tabhub/sdk": spec } });

Deno.test("deno.json: an npm: specifier gives its range; a path or another package gives none", () => {
  assertEquals(inDeno("npm:@tabhub/sdk@^0.1"), [
    {
      file: "deno.json",
      where: 'imports["@tabhub/sdk"]',
      spec: "npm:@tabhub/sdk@^0.1",
      range: "^0.1",
    },
  ]);
  assertEquals(inDeno("npm:@tabhub/sdk@~1.2.3/describe")[0].range, "~1.2.3");
  assertEquals(inDeno("npm:@tabhub/sdk")[0].range, "*");
  assertEquals(inDeno("../../../../sdk/mod.ts")[0].range, undefined);
  assertEquals(inDeno("/home/me/hub/sdk/mod.ts")[0].range, undefined);
  assertEquals(inDeno("npm:@acme/sdk-fork@^9")[0].range, undefined);
  assertEquals(denoJsonDeclarations({ imports: { zod: "npm:zod@^4" } }), []);
  assertEquals(denoJsonDeclarations({}), []);
  assertEquals(denoJsonDeclarations(null), []);
  const legacy = denoJsonDeclarations({ imports: { "@hub/sdk": "/old/hub/sdk/mod.ts" } });
  assertEquals(legacy.map((d) => [d.where, d.range]), [['imports["@hub/sdk"]', undefined]]);
});

Deno.test("package.json: ranges and npm: aliases in the three dependency fields", () => {
  const found = packageJsonDeclarations({
    peerDependencies: { "@tabhub/sdk": "^0.1" },
    dependencies: { "@tabhub/sdk": "npm:@tabhub/sdk@^2.0.0" },
    devDependencies: { "@tabhub/sdk": "file:../hub/dist/npm/sdk", zod: "^4" },
  });
  assertEquals(found.map((d) => [d.where, d.range]), [
    ["peerDependencies", "^0.1"],
    ["dependencies", "^2.0.0"],
    ["devDependencies", undefined],
  ]);
  assertEquals(
    packageJsonDeclarations({ dependencies: { "@tabhub/sdk": "latest" } })[0].range,
    undefined,
  );
  assertEquals(packageJsonDeclarations({ name: "x" }), []);
  assertEquals(packageJsonDeclarations(undefined), []);
});

Deno.test("a range the bundled SDK satisfies builds without a word", () => {
  assertEquals(checkSdkDeclarations(inDeno(`npm:@tabhub/sdk@${sdkRange()}`)), []);
  assertEquals(checkSdkDeclarations(inDeno("npm:@tabhub/sdk")), []);
  assertEquals(checkSdkDeclarations(inDeno("npm:@tabhub/sdk@^1.2.0"), "1.4.0"), []);
  assertEquals(
    checkSdkDeclarations(
      packageJsonDeclarations({ peerDependencies: { "@tabhub/sdk": ">=0.1.0 <0.2.0" } }),
      "0.1.7",
    ),
    [],
  );
  assertEquals(checkSdkDeclarations([]), [], "no declaration: an older project builds");
  assertEquals(checkSdkDeclarations(inDeno("../../sdk/mod.ts")), [], "a local path is accepted");
});

Deno.test("an incompatible major is refused, saying what to do", () => {
  assertThrows(
    () => checkSdkDeclarations(inDeno("npm:@tabhub/sdk@^2.0.0"), "0.1.0"),
    (error: Error) =>
      error instanceof UserError &&
      error.message ===
        'This plugin needs @tabhub/sdk ^2.0.0 (deno.json imports["@tabhub/sdk"]), but this ' +
          "hub-plugin builds with 0.1.0: update hub (`hub update`) or change the range in deno.json.",
  );
  // Under 0.x every minor is its own line.
  assertThrows(
    () =>
      checkSdkDeclarations(
        packageJsonDeclarations({ peerDependencies: { "@tabhub/sdk": "^0.3" } }),
        "0.1.0",
      ),
    UserError,
    "needs @tabhub/sdk ^0.3 (package.json peerDependencies), but this hub-plugin builds with 0.1.0",
  );
  // A plugin written for an older SDK: the fix is on the plugin's side.
  assertThrows(
    () => checkSdkDeclarations(inDeno("npm:@tabhub/sdk@^1.4.0"), "2.0.1"),
    UserError,
    'builds with 2.0.1: move the plugin to this SDK: set the range in deno.json to "^2.0"',
  );
});

Deno.test("a later version of the same line only warns", () => {
  const warnings = checkSdkDeclarations(inDeno("npm:@tabhub/sdk@^1.5.0"), "1.2.0");
  assertEquals(warnings.length, 1);
  assertMatch(warnings[0], /asks for @tabhub\/sdk \^1\.5\.0 \(deno\.json\).*builds with 1\.2\.0/);
  assertMatch(warnings[0], /hub update/);
});

Deno.test("a range that is not one is refused; the old name is a deprecation warning", () => {
  assertThrows(
    () => checkSdkDeclarations(inDeno("npm:@tabhub/sdk@banana"), "0.1.0"),
    UserError,
    'deno.json imports["@tabhub/sdk"] is "npm:@tabhub/sdk@banana", which is not a valid version range: use a range such as "^0.1"',
  );
  const warnings = checkSdkDeclarations(
    denoJsonDeclarations({ imports: { "@hub/sdk": "/old/hub/sdk/mod.ts" } }),
  );
  assertEquals(warnings.length, 1);
  assertMatch(warnings[0], /old name @hub\/sdk.*deprecated.*"@tabhub\/sdk": "npm:@tabhub\/sdk@\^/);
});

Deno.test("readSdkDeclarations reads deno.json (with comments) and package.json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-sdk-range-" });
  try {
    assertEquals(await readSdkDeclarations(dir), [], "neither file: nothing declared");
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      `{\n  // the SDK\n  "imports": { "@tabhub/sdk": "npm:@tabhub/sdk@^0.1" },\n}\n`,
    );
    await Deno.writeTextFile(
      join(dir, "package.json"),
      JSON.stringify({ name: "hub-plugin-x", peerDependencies: { "@tabhub/sdk": "^0.1" } }),
    );
    const found = await readSdkDeclarations(dir);
    assertEquals(found.map((d) => `${d.file} ${d.range}`), ["deno.json ^0.1", "package.json ^0.1"]);
    await Deno.writeTextFile(join(dir, "deno.json"), `{ "imports": { `);
    await readSdkDeclarations(dir).then(
      () => {
        throw new Error("a broken deno.json was read");
      },
      (error) => assertMatch(error.message, /deno\.json is not valid JSON at line 1/),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("this hub's own SDK satisfies the range a new plugin declares", () => {
  assertEquals(checkSdkDeclarations(inDeno(`npm:@tabhub/sdk@${sdkRange(SDK_VERSION)}`)), []);
  assertEquals(sdkRange("0.1.0"), "^0.1");
  assertEquals(sdkRange("1.4.2"), "^1.4");
});
