import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import { simplePluginSource, writePluginProject } from "../tests/helpers/plugin_cli.ts";
import { SDK_VERSION, sdkRange } from "../protocol/version.ts";
import { CliError } from "../core/cli_error.ts";
import { buildPlugin } from "./build.ts";
import { stopBundler } from "./bundle.ts";

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
    assert(error instanceof CliError, String(error));
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
