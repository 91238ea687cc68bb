/**
 * Test plugin packages on a test registry (tests/helpers/registry.ts), built from the test plugin
 * fixture (tests/fixtures/plugins/test-app) with the real `hub-plugin build` under another package
 * name and version:
 *
 * - `@tabhub/hub-plugin-alpha` 1.0.0 and 1.1.0: official (plugin `alpha`);
 * - `hub-plugin-beta` 1.0.0 and 1.1.0: community (plugin `beta`);
 * - `hub-plugin-alpha` 1.0.0: a community package with the same short name as the official one,
 *   so that a test sees the shorthand `alpha` pick the official package first;
 * - `hub-plugin-broken` 1.0.0: not a hub plugin (no `hub` field, no dist/);
 * - `hub-plugin-future` 1.0.0: a plugin built for an SDK major this hub does not speak.
 *
 * Every package has preinstall, install and postinstall scripts that write SCRIPT_MARKER into the
 * package folder, so a test can prove that installs ran no script.
 */
import { join } from "node:path";
import { buildPluginDir, TEST_PLUGIN_FIXTURE } from "./test_plugin.ts";
import type { TestRegistry } from "./registry.ts";
import { until } from "./until.ts";

export const OFFICIAL_PACKAGE = "@tabhub/hub-plugin-alpha";
export const COMMUNITY_PACKAGE = "hub-plugin-beta";
export const DECOY_PACKAGE = "hub-plugin-alpha";
export const BROKEN_PACKAGE = "hub-plugin-broken";
export const FUTURE_SDK_PACKAGE = "hub-plugin-future";
export const TEST_PLUGIN_VERSIONS = ["1.0.0", "1.1.0"] as const;
/** The file an install script of a test package writes into its package folder. */
export const SCRIPT_MARKER = "install-script-ran";
/** A tool every test plugin has (prefixed with the plugin name: `alpha__echo`). */
export const TEST_TOOL = "echo";

const SCRIPT =
  `node -e "require('fs').writeFileSync('${SCRIPT_MARKER}', process.env.npm_lifecycle_event)"`;
const SCRIPTS = { preinstall: SCRIPT, install: SCRIPT, postinstall: SCRIPT };

export interface PublishedTestPlugins {
  official: string;
  community: string;
  decoy: string;
  broken: string;
  futureSdk: string;
  versions: readonly string[];
  /** Seconds the builds and publishes took. */
  seconds: number;
}

async function copyInto(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.name === "dist" || entry.name === "node_modules" || entry.name === "deno.json") {
      continue;
    }
    if (entry.isDirectory) await copyInto(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * Builds the fixture as package `name`@`version` into a new folder under `work` and returns it:
 * package.json renamed, public, with the marker scripts; dist/ written by `hub-plugin build`.
 * `edit` may change package.json (a plugin name, URL patterns, bin entries) and add files to the
 * folder before the build.
 */
export async function buildTestPluginPackage(
  work: string,
  name: string,
  version: string,
  edit?: (
    pkg: Record<string, unknown> & { hub: Record<string, unknown> },
    dir: string,
  ) => Promise<void> | void,
): Promise<string> {
  const dir = join(work, `${name.replace("/", "+")}-${version}`);
  await copyInto(TEST_PLUGIN_FIXTURE, dir);
  const pkg = JSON.parse(await Deno.readTextFile(join(dir, "package.json")));
  delete pkg.private;
  pkg.name = name;
  pkg.version = version;
  pkg.description = `Test plugin ${name} ${version}`;
  pkg.author = "hub tests";
  pkg.scripts = SCRIPTS;
  pkg.hub.displayName = `Test ${name.replace(/^.*hub-plugin-/, "")}`;
  await edit?.(pkg, dir);
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  const configDir = join(work, "build-config");
  await buildPluginDir(dir, configDir);
  return dir;
}

/** A package that is not a hub plugin: no `hub` field, no dist/, only an index.js. */
async function brokenPackage(work: string): Promise<string> {
  const dir = join(work, BROKEN_PACKAGE);
  await Deno.mkdir(dir, { recursive: true });
  const pkg = {
    name: BROKEN_PACKAGE,
    version: "1.0.0",
    description: "Not a hub plugin: a plain package",
    main: "index.js",
    scripts: SCRIPTS,
  };
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  await Deno.writeTextFile(join(dir, "index.js"), "module.exports = 42;\n");
  return dir;
}

/** A built plugin whose tools.json says it was built with SDK 99.0.0. */
async function futureSdkPackage(work: string): Promise<string> {
  const dir = await buildTestPluginPackage(work, FUTURE_SDK_PACKAGE, "1.0.0");
  const toolsPath = join(dir, "dist", "tools.json");
  const tools = JSON.parse(await Deno.readTextFile(toolsPath));
  tools.sdkVersion = "99.0.0";
  await Deno.writeTextFile(toolsPath, JSON.stringify(tools, null, 2) + "\n");
  return dir;
}

/** Builds and publishes one test plugin package version (for a test that publishes a newer one). */
export async function publishTestPlugin(
  registry: TestRegistry,
  name: string,
  version: string,
): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "hub-test-plugin-package-" });
  try {
    await registry.publish(await buildTestPluginPackage(work, name, version));
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/**
 * Until the registry's search lists every one of `names`: verdaccio indexes a package for search a
 * little after `npm publish` returns, and on a loaded machine a search right away can miss it.
 */
async function searchable(registry: TestRegistry, names: string[]): Promise<void> {
  await until(
    async () => {
      const response = await fetch(`${registry.url}-/v1/search?text=hub-plugin&size=250`);
      const text = await response.text();
      return response.ok && names.every((name) => text.includes(`"name":${JSON.stringify(name)}`));
    },
    `the registry to list ${names.join(", ")} in its search`,
    30_000,
  );
}

/** Builds and publishes every test package listed at the top of this file. */
export async function publishTestPlugins(registry: TestRegistry): Promise<PublishedTestPlugins> {
  const started = performance.now();
  const work = await Deno.makeTempDir({ prefix: "hub-test-plugin-packages-" });
  try {
    const dirs: string[] = [];
    for (const version of TEST_PLUGIN_VERSIONS) {
      dirs.push(await buildTestPluginPackage(work, OFFICIAL_PACKAGE, version));
      dirs.push(await buildTestPluginPackage(work, COMMUNITY_PACKAGE, version));
    }
    dirs.push(await buildTestPluginPackage(work, DECOY_PACKAGE, "1.0.0"));
    dirs.push(await brokenPackage(work));
    dirs.push(await futureSdkPackage(work));
    for (const dir of dirs) await registry.publish(dir);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  const names = {
    official: OFFICIAL_PACKAGE,
    community: COMMUNITY_PACKAGE,
    decoy: DECOY_PACKAGE,
    broken: BROKEN_PACKAGE,
    futureSdk: FUTURE_SDK_PACKAGE,
  };
  await searchable(registry, Object.values(names));
  return {
    ...names,
    versions: TEST_PLUGIN_VERSIONS,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Which install scripts ran in an installed package folder (none, when scripts were off). */
export async function scriptsRan(packageDir: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(join(packageDir, SCRIPT_MARKER));
  } catch {
    return undefined;
  }
}
