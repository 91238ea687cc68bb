/**
 * Attack: a plugin package declares `bin: { git, ls, node }` and `man` pages, so that installing it
 * would put its scripts on the user's PATH (running `git` would run the plugin's code). Against a
 * real registry (verdaccio) and the real hub: `hub plugin install` and the side panel's
 * `plugin.install` (/ws) install such packages with no bin or man link anywhere under npm's global
 * prefix, and the CLI says which entries it did not link.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { FakeExtension } from "../helpers/fake_extension.ts";
import { runHub, startHub } from "../helpers/hub_process.ts";
import { globalRoot, packageWorld } from "../helpers/npm_install.ts";
import { buildTestPluginPackage } from "../helpers/plugin_packages.ts";
import { startRegistry, type TestRegistry } from "../helpers/registry.ts";

const CLI_PACKAGE = "hub-plugin-pathgrab";
const WS_PACKAGE = "hub-plugin-pathgrab-ws";
const PROGRAMS = ["git", "ls", "node"];

/** Publishes `name` with bin entries named like common programs and a man page. */
async function publishPathGrabber(registry: TestRegistry, name: string): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "hub-pathgrab-" });
  try {
    const dir = await buildTestPluginPackage(work, name, "1.0.0", async (pkg, dir) => {
      await Deno.mkdir(join(dir, "bin"));
      await Deno.mkdir(join(dir, "man"));
      const script =
        '#!/usr/bin/env node\nrequire("fs").writeFileSync("/tmp/pathgrab-ran", "1");\n';
      pkg.bin = Object.fromEntries(PROGRAMS.map((p) => [p, `bin/${p}.js`]));
      for (const p of PROGRAMS) await Deno.writeTextFile(join(dir, "bin", `${p}.js`), script);
      pkg.man = ["./man/pathgrab.1"];
      await Deno.writeTextFile(join(dir, "man", "pathgrab.1"), ".TH PATHGRAB 1\n");
      pkg.files = ["dist", "bin", "man", "package.json"];
    });
    await registry.publish(dir);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** Every path under `dir`, relative, or [] when it does not exist. */
async function listTree(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      found.push(rel);
      if (entry.isDirectory) found.push(...await listTree(join(dir, entry.name), rel));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

/** The bin and man links npm would have made under the global `prefix` (none must exist). */
async function linksUnder(prefix: string): Promise<string[]> {
  return [
    ...(await listTree(join(prefix, "bin"))).map((p) => `bin/${p}`),
    ...(await listTree(join(prefix, "share", "man"))).map((p) => `share/man/${p}`),
    ...(await listTree(join(globalRoot(prefix), ".bin"))).map((p) => `.bin/${p}`),
  ];
}

Deno.test("plugin packages never link bin or man entries: CLI and /ws installs", async () => {
  const registry = await startRegistry();
  const world = await packageWorld("hub-no-bin-links-", registry.env);
  const { configDir, prefix, root, env } = world;
  const hub = await startHub({ configDir, env });
  try {
    await publishPathGrabber(registry, CLI_PACKAGE);
    await publishPathGrabber(registry, WS_PACKAGE);

    const cli = await runHub(["plugin", "install", CLI_PACKAGE], {
      configDir,
      env: { ...env, HUB_PORT: String(hub.port) },
      timeoutMs: 180_000,
    });
    assertEquals(cli.code, 0, `${cli.stdout}\n${cli.stderr}`);
    const installed = JSON.parse(await Deno.readTextFile(join(root, CLI_PACKAGE, "package.json")));
    assertEquals(Object.keys(installed.bin), PROGRAMS, "the package really declares the programs");
    assertMatch(
      cli.stdout,
      /hub-plugin-pathgrab declares programs \(git, ls, node\) and manual pages \(\.\/man\/pathgrab\.1\); none was linked: plugin packages never put programs on your PATH\./,
    );
    assertEquals(await linksUnder(prefix), [], "no bin or man link after the CLI install");

    const ext = await FakeExtension.connect(hub.port, hub.secret);
    try {
      const reply = await ext.request("plugin.install", { name: WS_PACKAGE });
      assert(reply.error === undefined, JSON.stringify(reply.error));
      assertEquals(reply.result.notLinked, { bin: PROGRAMS, man: ["./man/pathgrab.1"] });
    } finally {
      await ext.close();
    }
    assert(await Deno.stat(join(root, WS_PACKAGE, "bin", "git.js")), "the package files are there");
    assertEquals(await linksUnder(prefix), [], "no bin or man link after the /ws install");
  } finally {
    await hub.stop();
    await registry.stop();
    await world.remove();
  }
});
