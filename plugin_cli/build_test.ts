import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import { simplePluginSource, writePluginProject } from "../tests/helpers/plugin_cli.ts";
import { SDK_VERSION, sdkRange } from "../protocol/version.ts";
import { UserError } from "../core/cli/user_error.ts";
import { buildPlugin } from "./build.ts";
import { completionValue, stopBundler } from "./bundle.ts";

async function withProject(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hub-plugin-build-" });
  try {
    await writePluginProject(dir, { name: "notes", source: simplePluginSource(["echo"]) });
    await fn(dir);
  } finally {
    await stopBundler();
    await Deno.remove(dir, { recursive: true });
  }
}

const writeDenoJson = (dir: string, imports: Record<string, string>) =>
  Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify({ imports }));

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a plugin whose SDK range has another major is not built", async () => {
  await withProject(async (dir) => {
    await writeDenoJson(dir, { "@tabhub/sdk": "npm:@tabhub/sdk@^99.0.0" });
    let error: unknown;
    await buildPlugin(dir).catch((e) => error = e);
    assert(error instanceof UserError, String(error));
    assertEquals(
      error.message,
      `This plugin needs @tabhub/sdk ^99.0.0 (deno.json imports["@tabhub/sdk"]), but this ` +
        `hub-plugin builds with ${SDK_VERSION}: update hub (\`hub update\`) or change the range ` +
        `in deno.json.`,
    );
    assertEquals(await exists(join(dir, "dist")), false, "nothing was written");
  });
});

Deno.test("a plugin declaring this SDK's range, or none, builds without warnings", async () => {
  await withProject(async (dir) => {
    assertEquals((await buildPlugin(dir)).warnings, [], "no declaration: an older project");
    await writeDenoJson(dir, { "@tabhub/sdk": `npm:@tabhub/sdk@${sdkRange()}` });
    const result = await buildPlugin(dir);
    assertEquals(result.warnings, []);
    assertEquals(result.tools.map((t) => t.name), ["echo"]);
  });
});

Deno.test("the old import name @hub/sdk still builds, with a deprecation warning", async () => {
  await withProject(async (dir) => {
    const source = simplePluginSource(["echo"]).replace('"@tabhub/sdk"', '"@hub/sdk"');
    assertMatch(source, /from "@hub\/sdk"/);
    await Deno.writeTextFile(join(dir, "src", "index.ts"), source);
    await writeDenoJson(dir, { "@hub/sdk": "../hub/sdk/mod.ts" });
    const result = await buildPlugin(dir);
    assertEquals(result.tools.map((t) => t.name), ["echo"]);
    assertEquals(result.warnings.length, 1);
    assertMatch(result.warnings[0], /old name @hub\/sdk, which still builds but is deprecated/);
    const adapter = await Deno.readTextFile(join(dir, "dist", "adapter.iife.js"));
    assertMatch(adapter, new RegExp(`SDK ${SDK_VERSION.replaceAll(".", "\\.")}`));
  });
});

Deno.test("an adapter bundles only the parts of zod its plugin uses", async () => {
  await withProject(async (dir) => {
    const result = await buildPlugin(dir);
    const adapter = await Deno.readTextFile(join(dir, "dist", "adapter.iife.js"));
    // All of zod (every locale, JSON Schema import, the compiler) was about 380 KB.
    assert(result.adapterBytes < 150_000, `adapter of ${result.adapterBytes} bytes`);
    assert(!adapter.includes("Zeichen"), "zod's German messages are not in the adapter");
    // zod's jitless switch runs before the plugin's first schema: it comes first in the bundle.
    assert(adapter.indexOf("jitless:!0") > 0, "the adapter sets jitless");
    assert(adapter.indexOf("jitless:!0") < adapter.indexOf("What to echo"), "before the schemas");
  });
});

Deno.test("an adapter evaluates to its door's key and secret, and leaves no global variable", async () => {
  await withProject(async (dir) => {
    await buildPlugin(dir);
    const adapter = await Deno.readTextFile(join(dir, "dist", "adapter.iife.js"));
    assertMatch(adapter, /^\/\* hub adapter: notes [^\n]*\*\/\n\(\(\)=>\{/);
    assert(!adapter.includes("__hubAdapterCompletion"), "esbuild's variable is gone");
    // What executeScript({ files }) hands the extension: the script's completion value.
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const value = (0, eval)(adapter) as { default: Record<string, string> };
    const added = Object.getOwnPropertyNames(globalThis).filter((n) => !before.has(n));
    assertEquals(added, [value.default.key]);
    assertMatch(value.default.key, /^__hubAdapter:notes:[0-9a-f]{32}$/);
    assertMatch(value.default.secret, /^[0-9a-f]{64}$/);
    assertEquals(value.default.plugin, "notes");
  });
});

Deno.test("completionValue refuses a bundle of an unexpected shape", () => {
  assertEquals(
    completionValue("/* b */\nvar __hubAdapterCompletion=(()=>1)();"),
    "/* b */\n(()=>1)();",
  );
  let message = "";
  try {
    completionValue("(()=>1)();");
  } catch (error) {
    message = (error as Error).message;
  }
  assertMatch(message, /unexpected shape/);
});
