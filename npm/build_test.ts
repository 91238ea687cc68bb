/**
 * The @tabhub/hub npm package, built from this checkout into a temp folder: its package.json and
 * launchers' flags, no absolute path in it, `npm pack`, and a global install (dependencies from the
 * public registry, a temp prefix and cache) whose `hub` and `hub-plugin` run with no Deno on PATH
 * and no network for Deno: `--version`, and `hub start --background` / `status` / `stop`.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../tests/helpers/assert.ts";
import { VERSION } from "../protocol/version.ts";
import { buildHubPackage, type BuildResult, restampVersion, ROOT } from "./build.ts";
import { flagMismatches, wrapperFlags } from "./permission_flags.ts";
import { runNpm } from "./npm_command.ts";
import { absolutePathHits, installedSize } from "./package_checks.ts";
import { freePort } from "../tests/helpers/hub_process.ts";
import {
  globalBin,
  globalRoot,
  noDenoPath,
  npmInstallGlobal,
  runInstalled as run,
  startInstalledHub,
} from "../tests/helpers/npm_install.ts";

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
const MB = 1024 * 1024;

async function checkPackageJson(built: BuildResult): Promise<void> {
  const pkg = await readJson(join(built.outDir, "package.json"));
  const template = await readJson(join(ROOT, "npm", "package_template.json"));
  assertEquals([pkg.name, pkg.version, pkg.type], ["@tabhub/hub", VERSION, "module"]);
  assertEquals(pkg.bin, { hub: "bin/hub.cjs", "hub-plugin": "bin/hub-plugin.cjs" });
  for (const file of Object.values(pkg.bin) as string[]) {
    assert((await Deno.stat(join(built.outDir, file))).isFile, file);
  }
  assertEquals(pkg.dependencies.deno, template.dependencies.deno);
  for (const name of ["@modelcontextprotocol/sdk", "ajv", "commander", "zod", "esbuild"]) {
    assert(name in pkg.dependencies, `${name} is a dependency`);
  }
  for (const [name, version] of Object.entries(pkg.dependencies)) {
    assert(/^\d+\.\d+\.\d+$/.test(version as string), `${name}@${version} is pinned`);
  }
  assert(typeof pkg.engines?.node === "string" && typeof pkg.license === "string");
  const denoJson = await readJson(join(built.outDir, "deno.json"));
  assertEquals([denoJson.nodeModulesDir, denoJson.lock], ["manual", false]);
}

async function checkShrinkwrap(built: BuildResult): Promise<void> {
  const lock = await readJson(join(built.outDir, "npm-shrinkwrap.json"));
  assertEquals(lock.packages[""].dependencies, built.dependencies);
  const entries = Object.entries(lock.packages).filter(([path]) => path !== "");
  assert(entries.length > 20, `only ${entries.length} packages in the shrinkwrap`);
  for (const [path, entry] of entries as [string, { version?: string; integrity?: string }][]) {
    assert(/^\d+\.\d+\.\d+/.test(entry.version ?? "") && entry.integrity, `${path} is pinned`);
  }
}

interface Installed {
  prefix: string;
  seconds: number;
}

/** npm installed the tree npm-shrinkwrap.json names, at the versions it names. */
async function checkInstalledTree(packageDir: string): Promise<void> {
  const lock = await readJson(join(packageDir, "npm-shrinkwrap.json"));
  let checked = 0;
  for (const [path, entry] of Object.entries(lock.packages) as [string, { version: string }][]) {
    if (!path.startsWith("node_modules/")) continue;
    const installed = await readJson(join(packageDir, path, "package.json")).catch(() => undefined);
    if (installed === undefined) continue; // an optional package of another platform
    assertEquals(installed.version, entry.version, path);
    checked++;
  }
  assert(checked > 20, `only ${checked} installed packages checked`);
}

async function checkInstalledCommands(tmp: string, installed: Installed): Promise<void> {
  const bin = globalBin(installed.prefix);
  const root = globalRoot(installed.prefix);
  // A package that looks like a plugin beside hub: discovery must look in this npm root.
  await Deno.mkdir(join(root, "hub-plugin-probe"), { recursive: true });
  await Deno.writeTextFile(join(root, "hub-plugin-probe", "package.json"), "{}");
  const env = {
    PATH: await noDenoPath(join(tmp, "no-deno")),
    HOME: join(tmp, "home"),
    HUB_CONFIG_DIR: join(tmp, "config"),
    DENO_DIR: join(tmp, "deno-dir"),
    NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
    NO_COLOR: "1",
  };
  for (const command of ["hub", "hub-plugin"]) {
    const result = await run(join(bin, command), ["--version"], env);
    assertEquals([result.code, result.stdout], [0, VERSION], `${command}: ${result.stderr}`);
  }
  const hub = await startInstalledHub(bin, freePort(), env);
  try {
    const status = await run(join(bin, "hub"), ["status", "--json", "--port", `${hub.port}`], env);
    assertEquals(status.code, 0, status.stderr);
    const health = JSON.parse(status.stdout);
    assertEquals(health.status, "ok");
    const probe = join(root, "hub-plugin-probe");
    assert(
      JSON.stringify([health.failedPlugins, health.discoveryErrors]).includes(probe),
      `discovery did not look in ${root}: ${status.stdout.slice(0, 500)}`,
    );
  } finally {
    const stop = await hub.stop();
    assertEquals(stop?.code, 0, stop?.stderr);
  }
  const denoDirNpm = [...Deno.readDirSync(env.DENO_DIR)].find((e) => e.name === "npm");
  if (denoDirNpm) assertEquals([...Deno.readDirSync(join(env.DENO_DIR, "npm"))], []);
}

Deno.test({
  name: "npm package: built, packed, installed globally, and runs with no Deno on PATH",
  async fn(t) {
    const tmp = await Deno.makeTempDir({ prefix: "hub_npm_package_" });
    const npmEnv = {
      NPM_CONFIG_CACHE: join(tmp, "npm-cache"),
      NPM_CONFIG_UPDATE_NOTIFIER: "false",
      NPM_CONFIG_AUDIT: "false",
      NPM_CONFIG_FUND: "false",
    };
    try {
      const built = await buildHubPackage({ outDir: join(tmp, "package"), npmEnv });
      await t.step("package.json: name, VERSION, bins, pinned dependencies", async () => {
        await checkPackageJson(built);
        await checkShrinkwrap(built);
      });
      await t.step(
        "the launchers' flags are cli/server/deno_permissions.ts and the tasks'",
        async () => {
          const flags = await readJson(join(built.outDir, "flags.json"));
          assertEquals(flags, wrapperFlags());
          const tasks = (await readJson(join(ROOT, "deno.json"))).tasks;
          assertEquals(flagMismatches(tasks, flags), []);
        },
      );
      await t.step("no absolute path in any file of the package", async () => {
        assertEquals(await absolutePathHits(built.outDir, [ROOT, tmp]), []);
      });
      const packed = JSON.parse(
        await runNpm(["pack", "--json", "--pack-destination", tmp], {
          cwd: built.outDir,
          env: npmEnv,
        }),
      )[0];
      const files = packed.files.map((f: { path: string }) => f.path);
      await t.step("npm pack: the programs, SDK sources, extension and no tests", () => {
        for (
          const file of [
            "bin/hub.cjs",
            "bin/run_deno.cjs",
            "main.js",
            "plugin_cli/main.js",
            "flags.json",
            "deno.json",
            "npm-shrinkwrap.json",
            "sdk/mod.ts",
            "extension/dist/manifest.json",
          ]
        ) assert(files.includes(file), `${file} is packed`);
        // The chunks the programs import when they need them (package.json "files": chunk-*.js).
        assert(built.programFiles.some((f) => f.startsWith("chunk-")), `${built.programFiles}`);
        for (const file of built.programFiles) assert(files.includes(file), `${file} is packed`);
        assertEquals(files.filter((f: string) => /_test\.ts$|^tests\/|^bench\//.test(f)), []);
      });
      const prefix = join(tmp, "prefix");
      const installed = {
        prefix,
        ...await npmInstallGlobal(prefix, join(tmp, packed.filename), npmEnv),
      };
      const packageDir = join(globalRoot(prefix), "@tabhub", "hub");
      await t.step("the install follows npm-shrinkwrap.json", () => checkInstalledTree(packageDir));
      const size = await installedSize(packageDir);
      console.log(
        `npm package: tarball ${
          (packed.size / 1024).toFixed(0)
        } KiB (${packed.entryCount} files), ` +
          `install ${installed.seconds.toFixed(1)} s, installed ${
            (size.bytes / MB).toFixed(1)
          } MB ` +
          `beside the Deno binary (${(size.denoBytes / MB).toFixed(0)} MB)`,
      );
      await t.step("installed under 60 MB beside the Deno binary", () => {
        assert(size.bytes < 60 * MB, `${(size.bytes / MB).toFixed(1)} MB`);
      });
      await t.step("hub and hub-plugin run from the install without Deno on PATH", async () => {
        await checkInstalledCommands(tmp, installed);
      });
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test("npm package: a version that is not semver is refused before anything is built", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "hub_npm_package_" });
  try {
    await assertRejects(
      () => buildHubPackage({ outDir: join(tmp, "package"), version: "0.2" }),
      /Cannot build the npm package as version "0\.2": not a semver version/,
    );
    assertEquals([...Deno.readDirSync(tmp)], []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("restampVersion sets a declared or a lazily assigned VERSION, never another name", () => {
  const v = JSON.stringify(VERSION);
  const forms = [
    `var VERSION = ${v};`,
    `export const VERSION = ${v};`,
    `var init_version = __esm({\n  "protocol/version.ts"() {\n    VERSION = ${v};\n  }\n});`,
  ];
  for (const form of forms) {
    const { text, found } = restampVersion(
      `var SDK_VERSION = ${v};\nx.VERSION = ${v};\n${form}`,
      "9.9.9",
    );
    assertEquals(found, 1, form);
    assert(text.includes('VERSION = "9.9.9";'), text);
    assert(text.includes(`SDK_VERSION = ${v};`) && text.includes(`x.VERSION = ${v};`), text);
  }
  assertEquals(restampVersion(`${forms[0]}\n${forms[2]}`, "9.9.9").found, 2);
});
