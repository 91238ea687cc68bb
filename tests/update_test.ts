/**
 * `hub update` end to end, against a real npm registry (verdaccio on loopback): the real hub
 * (main.ts, under the task's permission flags) believes it was installed by npm into a temp prefix
 * and updates that install. The published `@tabhub/hub` here is a stand-in (a package.json and a
 * bin): what is tested is the hub's update logic and its npm calls, not the wrapper.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { freePort, runCommand, runHub } from "./helpers/hub_process.ts";
import { registryNpm, startRegistry, type TestRegistry } from "./helpers/registry.ts";
import { VERSION } from "../protocol/version.ts";

/** Publishes a minimal `@tabhub/hub@<version>` whose `hub` bin prints its version. */
async function publishStandIn(registry: TestRegistry, work: string, version: string) {
  const dir = join(work, `pkg-${version}`);
  await Deno.mkdir(join(dir, "bin"), { recursive: true });
  const manifest = { name: "@tabhub/hub", version, bin: { hub: "bin/hub.js" } };
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  await Deno.writeTextFile(
    join(dir, "bin", "hub.js"),
    `#!/usr/bin/env node\nconsole.log("stand-in hub ${version}");\n`,
  );
  await registry.publish(dir);
}

function npm(registry: TestRegistry, args: string[]) {
  return registryNpm(registry, args, 120_000);
}

function assertOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  assertEquals(lines.length, 1, stderr);
  assertMatch(lines[0], /^error: /);
  assertMatch(lines[0], pattern);
  assert(!/\bat .*\.ts:\d+/.test(stderr), `a stack trace: ${stderr}`);
}

Deno.test("hub update: reports and installs a newer published hub; a down registry is exit 1", async (t) => {
  const registry = await startRegistry();
  const work = await Deno.makeTempDir({ prefix: "hub-update-e2e-" });
  const prefix = join(work, "prefix");
  const packageDir = join(prefix, "lib", "node_modules", "@tabhub", "hub");
  const next = semver.inc(VERSION, "patch")!;
  const env = registry.env({
    HUB_INSTALL: "npm",
    HUB_NPM_PACKAGE_DIR: packageDir,
    HUB_PORT: String(freePort()), // no hub runs there
  });
  const hub = (args: string[]) =>
    runHub(args, { configDir: join(work, "config"), env, timeoutMs: 120_000 });
  const installedVersion = async () =>
    JSON.parse(await Deno.readTextFile(join(packageDir, "package.json"))).version;
  try {
    await publishStandIn(registry, work, VERSION);
    const first = await npm(registry, ["i", "-g", "--prefix", prefix, `@tabhub/hub@${VERSION}`]);
    assertEquals(first.code, 0, first.stderr);

    await t.step("an install of the latest version is up to date", async () => {
      const check = await hub(["update", "--check"]);
      assertEquals(check.code, 0, check.stderr);
      assertEquals(check.stdout.trim(), `hub ${VERSION} is up to date.`);
      const update = await hub(["update"]);
      assertEquals(update.code, 0, update.stderr);
      assertEquals(update.stdout.trim(), `hub ${VERSION} is up to date.`);
    });

    await publishStandIn(registry, work, next);

    await t.step("--check reports the newer version and installs nothing", async () => {
      const check = await hub(["update", "--check"]);
      assertEquals(check.code, 0, check.stderr);
      assertEquals(
        check.stdout.trim(),
        `hub ${next} is available (installed ${VERSION}); run "hub update" to install it.`,
      );
      assertEquals(await installedVersion(), VERSION);
    });

    await t.step("update installs it into the same prefix and says how to restart", async () => {
      const started = performance.now();
      const update = await hub(["update"]);
      console.log(`hub update took ${Math.round(performance.now() - started)} ms`);
      assertEquals(update.code, 0, update.stderr);
      assertMatch(update.stdout, new RegExp(`Updated hub ${VERSION} -> ${next}\\.`));
      assertMatch(update.stdout, /No hub is running on port \d+; the next "hub start" runs/);
      assertEquals(await installedVersion(), next);
      const bin = await runCommand(
        "the installed hub bin",
        new Deno.Command(join(prefix, "bin", "hub"), { stdout: "piped", stderr: "piped" }),
      );
      assertEquals(bin.stdout.trim(), `stand-in hub ${next}`);
    });

    await t.step("a registry that is down is a one-line error and exit 1", async () => {
      await registry.down();
      // npm's warm cache still answers for the dead registry, even with --prefer-online:
      const cached = await npm(registry, [
        "view",
        "@tabhub/hub",
        "version",
        "--prefer-online",
        "--fetch-retries=0",
      ]);
      assertEquals([cached.code, cached.stdout.trim()], [0, next]);
      for (const args of [["update", "--check"], ["update"]]) {
        const result = await hub(args);
        assertEquals(result.code, 1, result.stdout);
        assertOneLineError(
          result.stderr,
          new RegExp(`Cannot reach the npm registry ${registry.url} .*\\(ECONNREFUSED\\)`),
        );
      }
      assertEquals(await installedVersion(), next);
    });
  } finally {
    await registry.stop();
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("hub update: a package the registry does not have is a one-line error", async () => {
  const registry = await startRegistry();
  const work = await Deno.makeTempDir({ prefix: "hub-update-e2e-" });
  try {
    const env = registry.env({
      HUB_INSTALL: "npm",
      HUB_NPM_PACKAGE_DIR: join(work, "lib", "node_modules", "@tabhub", "hub"),
    });
    const result = await runHub(["update", "--check"], { configDir: join(work, "config"), env });
    assertEquals(result.code, 1, result.stdout);
    assertOneLineError(result.stderr, /@tabhub\/hub is not published on the npm registry .*E404/);
  } finally {
    await registry.stop();
    await Deno.remove(work, { recursive: true });
  }
});
