/// <reference lib="deno.ns" />
/**
 * The `@tabhub/sdk` package as a plugin author gets it: built into a temp folder, packed with npm,
 * installed into a tiny Deno project (zod comes from the registry npm is configured with), where a
 * plugin source type-checks against the package's declarations, a type error in it is caught (the
 * types are real, not `any`), and the package's JavaScript runs.
 */
import * as esbuild from "esbuild";
import { join, resolve } from "node:path";
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import { absolutePathHits } from "../npm/package_checks.ts";
import { SDK_VERSION, sdkRange, VERSION } from "../protocol/version.ts";
import { buildSdkPackage, sdkPackageJson, withJsSpecifiers } from "./build_package.ts";

const ROOT = resolve(import.meta.dirname!, "..");

const PLUGIN_SOURCE = `import { definePlugin, defineTool, log, ToolError, z } from "@tabhub/sdk";

export default definePlugin({
  tools: [
    defineTool({
      name: "count_items",
      description: "Counts the items on the page.",
      input: z.object({ limit: z.number().int().describe("How many at most") }),
      output: z.object({ count: z.number() }),
      handle: ({ limit }) => {
        const most: number = limit;
        if (most < 0) throw ToolError.unavailable("The list has not loaded yet");
        log.info("Counting", { most });
        return { count: most };
      },
    }),
  ],
});
`;

/** The same plugin with one type error: `limit` is a number, inferred from the schema. */
const BAD_SOURCE = PLUGIN_SOURCE.replace(
  "const most: number = limit;",
  "const most: string = limit;",
);

const MAIN_SOURCE = `import { describePlugin } from "@tabhub/sdk/describe";
import { SDK_VERSION } from "@tabhub/sdk";
import plugin from "./plugin.ts";
console.log(JSON.stringify({ sdk: SDK_VERSION, tools: describePlugin(plugin).tools }));
`;

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command(cmd, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

/** A Deno project that installed the packed package with npm and maps it as a scaffold does. */
async function consumerProject(root: string, packageDir: string): Promise<string> {
  const app = join(root, "app");
  await Deno.mkdir(app);
  const npmEnv = { NPM_CONFIG_CACHE: join(root, "npm-cache"), NPM_CONFIG_UPDATE_NOTIFIER: "false" };
  const packed = await run("npm", ["pack", packageDir, "--pack-destination", root], root, npmEnv);
  assertEquals(packed.code, 0, packed.stderr);
  const tarball = join(root, packed.stdout.trim().split("\n").at(-1)!);
  await Deno.writeTextFile(join(app, "package.json"), '{ "name": "app", "private": true }\n');
  const installed = await run(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", tarball],
    app,
    npmEnv,
  );
  assertEquals(installed.code, 0, installed.stderr);
  const denoJson = {
    nodeModulesDir: "manual",
    imports: {
      "@tabhub/sdk": `npm:@tabhub/sdk@${sdkRange()}`,
      "@tabhub/sdk/describe": `npm:@tabhub/sdk@${sdkRange()}/describe`,
    },
    compilerOptions: { lib: ["dom", "dom.iterable", "esnext"] },
  };
  await Deno.writeTextFile(join(app, "deno.json"), JSON.stringify(denoJson, null, 2));
  await Deno.writeTextFile(join(app, "plugin.ts"), PLUGIN_SOURCE);
  await Deno.writeTextFile(join(app, "bad.ts"), BAD_SOURCE);
  await Deno.writeTextFile(join(app, "main.ts"), MAIN_SOURCE);
  return app;
}

Deno.test("the SDK package builds, has no absolute path, and type-checks a plugin in a Deno project", async () => {
  const root = await Deno.makeTempDir({ prefix: "hub-sdk-package-" });
  try {
    const packageDir = join(root, "package");
    await buildSdkPackage(packageDir).finally(() => esbuild.stop());

    const pkg = await readJson(join(packageDir, "package.json"));
    assertEquals(pkg.name, "@tabhub/sdk");
    assertEquals(pkg.version, SDK_VERSION);
    assertEquals(pkg.version, VERSION, "one version for hub and its SDK");
    assertEquals(pkg.type, "module");
    assertEquals(Object.keys(pkg.exports), [".", "./describe", "./package.json"]);
    const rootDeno = await readJson(join(ROOT, "deno.json"));
    assertEquals(`npm:zod@${pkg.dependencies.zod}`, rootDeno.imports.zod);
    for (const door of [pkg.exports["."], pkg.exports["./describe"]]) {
      for (const file of [door.types, door.default]) {
        assert((await Deno.stat(join(packageDir, file))).isFile, `${file} was written`);
      }
    }
    assertEquals(pkg.types, pkg.exports["."].types);
    assertEquals(pkg.files, ["README.md", "describe.js", "mod.js", "types/"]);
    assertEquals(await absolutePathHits(packageDir, [ROOT, root]), []);
    const modJs = await Deno.readTextFile(join(packageDir, "mod.js"));
    assertMatch(modJs, /from "zod"/, "zod stays an import of the package");
    assert(!/from "[^"]*\.ts"/.test(modJs), "the bundle imports no TypeScript file");
    const modTypes = await Deno.readTextFile(join(packageDir, pkg.types));
    assertMatch(modTypes, /export \{ definePlugin, defineTool \} from "\.\/plugin\.js"/);
    assert(!/from "\.[^"]*\.ts"/.test(modTypes), "declarations import .js paths");
    assertMatch(await Deno.readTextFile(join(packageDir, "README.md")), /npm:@tabhub\/sdk@\^/);

    const app = await consumerProject(root, packageDir);
    const good = await run(Deno.execPath(), ["check", "--quiet", "plugin.ts", "main.ts"], app);
    assertEquals(good.code, 0, good.stderr);
    const bad = await run(Deno.execPath(), ["check", "--quiet", "bad.ts"], app);
    assertEquals(bad.code, 1, "a type error in the plugin fails deno check");
    assertMatch(bad.stderr, /TS2322[\s\S]*Type 'number' is not assignable to type 'string'/);
    assertMatch(bad.stderr, /bad\.ts:11/);

    const ran = await run(Deno.execPath(), ["run", "--quiet", "--allow-read", "main.ts"], app);
    assertEquals(ran.code, 0, ran.stderr);
    const described = JSON.parse(ran.stdout);
    assertEquals(described.sdk, SDK_VERSION);
    assertEquals(described.tools[0].name, "count_items");
    assertEquals(described.tools[0].inputSchema.properties.limit.type, "integer");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("building into a folder that holds something else is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-sdk-package-" });
  try {
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine");
    let message = "";
    await buildSdkPackage(dir).catch((error) => message = error.message);
    assertMatch(
      message,
      /Cannot build @tabhub\/sdk into .*: the folder is not empty and holds no earlier build/,
    );
    assertEquals(await Deno.readTextFile(join(dir, "notes.txt")), "mine");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("declarations import .js files where the sources imported .ts files", () => {
  const text = [
    `export { z } from "./zod.ts";`,
    `export type { ErrorCategory } from "../protocol/errors.ts";`,
    `import type { Log } from './log.ts';`,
    `type A = import("./plugin.ts").PluginDefinition;`,
    `import "./side_effect.ts";`,
    `import { z } from "zod";`,
    `export declare const name = "file.ts";`,
  ].join("\n");
  assertEquals(
    withJsSpecifiers(text).split("\n"),
    [
      `export { z } from "./zod.js";`,
      `export type { ErrorCategory } from "../protocol/errors.js";`,
      `import type { Log } from './log.js';`,
      `type A = import("./plugin.js").PluginDefinition;`,
      `import "./side_effect.js";`,
      `import { z } from "zod";`,
      `export declare const name = "file.ts";`,
    ],
  );
});

Deno.test("the package.json lists its doors with their types and zod as a dependency", () => {
  const pkg = sdkPackageJson("^4.1.0", ["mod.js", "package.json", "describe.js", "types/"]);
  assertEquals(pkg.exports, {
    ".": { types: "./types/sdk/mod.d.ts", default: "./mod.js" },
    "./describe": { types: "./types/sdk/describe.d.ts", default: "./describe.js" },
    "./package.json": "./package.json",
  });
  assertEquals(pkg.files, ["describe.js", "mod.js", "types/"]);
  assertEquals(pkg.dependencies, { zod: "^4.1.0" });
  assertEquals(pkg.version, SDK_VERSION);
});
