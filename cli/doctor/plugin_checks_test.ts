import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import type { LocalPlugin } from "../../core/packages/local_plugins.ts";
import {
  localPluginsCheck,
  packageNameOf,
  packagesFromHealth,
  packagesOffline,
} from "./plugin_checks.ts";

async function pluginDir(root: string, name: string, files: string[]): Promise<LocalPlugin> {
  const dir = join(root, name);
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  for (const file of files) await Deno.writeTextFile(join(dir, file), "{}");
  return { entry: dir, inPluginDirs: false, dir, plugin: name };
}

const health = (over: Partial<HealthPayload>) =>
  ({ failedPlugins: [], discoveryErrors: [], pluginDetails: [], ...over }) as HealthPayload;

Deno.test("local plugins: built ones pass, a missing build names its files and the fix", async () => {
  await withTempDir(async (root) => {
    assertEquals((await localPluginsCheck([], undefined)).message, "none configured");
    const built = await pluginDir(root, "good", ["dist/tools.json", "dist/adapter.iife.js"]);
    assertEquals((await localPluginsCheck([built], undefined)).status, "pass");
    const half = await pluginDir(root, "half", ["dist/tools.json"]);
    const none = await pluginDir(root, "none", []);
    const check = await localPluginsCheck([built, half, none], undefined);
    assertEquals(check.status, "warn");
    assertEquals(check.message.split("\n"), [
      "2 of 3 not usable",
      `half (${half.dir}) has no dist/adapter.iife.js`,
      `none (${none.dir}) has no dist/tools.json and dist/adapter.iife.js`,
    ]);
    assertEquals(check.fix, `hub-plugin build --dir ${half.dir}`);
    const failing = await localPluginsCheck(
      [built],
      health({ failedPlugins: [{ path: built.dir, error: "tools.json: bad schema" }] }),
    );
    assertEquals(failing.status, "warn");
    assertMatch(failing.message, /good .* does not load: tools\.json: bad schema/);
  });
});

Deno.test("packages from /health: npm failures and discovery errors, not local folders", () => {
  const local: LocalPlugin = { entry: "/p/mine", inPluginDirs: false, dir: "/p/mine" };
  const check = packagesFromHealth(
    health({
      failedPlugins: [
        { path: "/g/node_modules/@acme/hub-plugin-x", error: "no dist/tools.json" },
        { path: "/p/mine", error: "local failure" },
      ],
      discoveryErrors: [
        { source: "npm", specifier: "npm root -g", error: "npm is not installed" },
        { source: "local", specifier: "/gone", error: "does not exist" },
      ],
    }),
    [local],
  );
  assertEquals(check.status, "warn");
  assertEquals(check.message.split("\n"), [
    "2 did not load",
    "@acme/hub-plugin-x: no dist/tools.json",
    "npm root -g: npm is not installed",
  ]);
  assertEquals(
    check.fix,
    "hub plugin remove @acme/hub-plugin-x --confirm (then install a working version)",
  );
  const fine = packagesFromHealth(
    health({
      pluginDetails: [{ source: "npm" }, { source: "local" }] as HealthPayload["pluginDetails"],
    }),
    [],
  );
  assertEquals([fine.status, fine.message], ["pass", "1 loaded by the running hub"]);
});

Deno.test("packages offline: the load checks, skipped discovery, npm that cannot list", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "hub-plugin-x");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      join(dir, "package.json"),
      JSON.stringify({ name: "hub-plugin-x", version: "1.0.0" }),
    );
    const broken = await packagesOffline(
      () => Promise.resolve([{ name: "hub-plugin-x", version: "1.0.0", plugin: "x", dir }]),
      false,
    );
    assertEquals(broken.status, "warn");
    assertMatch(
      broken.message,
      /^1 did not load\nhub-plugin-x: hub-plugin-x@1\.0\.0 is not a hub plugin/,
    );
    assertEquals(broken.message.includes("Nothing was installed"), false);
    assertEquals((await packagesOffline(() => Promise.resolve([]), false)).status, "pass");
    const skipped = await packagesOffline(() => Promise.reject(new Error("unused")), true);
    assertEquals(skipped.status, "skip");
    const npmDown = await packagesOffline(() => Promise.reject(new Error("npm not found")), false);
    assertEquals(npmDown.status, "warn");
    assertMatch(npmDown.message, /cannot list the global plugin packages: npm not found/);
  });
});

Deno.test("package names from folders", () => {
  assertEquals(packageNameOf("/g/lib/node_modules/hub-plugin-a"), "hub-plugin-a");
  assertEquals(packageNameOf("/g/lib/node_modules/@s/hub-plugin-b/"), "@s/hub-plugin-b");
});
