/**
 * End to end: `hub-plugin inspect` and `hub-plugin readme` read the last build (and say to build
 * first); `readme --check`/`--dry-run` and the author's text around the generated block;
 * `hub-plugin build --watch` rebuilds on edits, survives a broken edit, the running hub serves the
 * new tools, and SIGTERM leaves no process behind.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startHub, withTempDir } from "./helpers/hub_process.ts";
import { eventually, listTools } from "./helpers/hub_api.ts";
import {
  runPluginCli,
  simplePluginSource,
  spawnPluginCli,
  writePluginProject,
} from "./helpers/plugin_cli.ts";
import { SDK_VERSION } from "../protocol/version.ts";

/** Text of a file, or undefined when it does not exist. */
async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

Deno.test("hub-plugin inspect and readme read the build; readme --check and --dry-run", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const dir = await writePluginProject(join(root, "notes"), {
      name: "notes",
      version: "1.2.3",
      source: simplePluginSource(["add_note", "list_notes"]),
      hub: { description: "First description." },
    });
    const cli = (...args: string[]) => runPluginCli([...args, "--dir", dir], { configDir });

    for (const command of ["inspect", "readme"]) {
      const early = await cli(command);
      assertEquals(early.code, 1, `${command} before build`);
      assertMatch(
        early.stderr,
        /dist\/tools\.json does not exist: build the plugin first \("deno task build"/,
      );
    }
    assertEquals((await cli("build")).code, 0);

    const text = await cli("inspect");
    assertEquals(text.code, 0, text.stderr);
    for (
      const part of [
        "Plugin notes (notes) 1.2.3",
        `SDK version: ${SDK_VERSION}`,
        "tools: 2",
        "notes__add_note",
        "notes__list_notes",
        "text: string",
        "count?: integer",
      ]
    ) assert(text.stdout.includes(part), `inspect shows ${part}:\n${text.stdout}`);
    const json = await cli("inspect", "--json");
    assertEquals(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assertEquals([report.name, report.version, report.sdkVersion], ["notes", "1.2.3", SDK_VERSION]);
    assertEquals(report.toolCount, 2);
    assertEquals(report.tools[0].input.map((f: { name: string }) => f.name), ["text", "count"]);

    const readme = join(dir, "README.md");
    await Deno.writeTextFile(readme, "Hand-written intro.\n");
    const wrote = await cli("readme");
    assertEquals(wrote.code, 0, wrote.stderr);
    let current = await Deno.readTextFile(readme);
    assertMatch(current, /<!-- hub-plugin readme: generated/);
    assertMatch(current, /First description\./);
    assertMatch(current, /notes__add_note/);
    assert(current.includes("Hand-written intro."), "text outside the markers is kept");
    assertEquals((await cli("readme", "--check")).code, 0);

    await Deno.writeTextFile(readme, `${current}\n## Changelog\n\nKept by hand.\n`);
    assertEquals(
      (await cli("readme", "--check")).code,
      0,
      "text after the markers is the author's",
    );

    const pkgPath = join(dir, "package.json");
    const pkg = JSON.parse(await Deno.readTextFile(pkgPath));
    pkg.hub.description = "Second description.";
    await Deno.writeTextFile(pkgPath, JSON.stringify(pkg, null, 2));
    assertEquals((await cli("build")).code, 0);
    const stale = await cli("readme", "--check");
    assertEquals(stale.code, 1, stale.stdout);
    assertMatch(stale.stderr, /README\.md is out of date/);

    current = await Deno.readTextFile(readme);
    const dry = await cli("readme", "--dry-run");
    assertEquals(dry.code, 0, dry.stderr);
    assertMatch(dry.stdout, /Second description\./);
    assertEquals(await Deno.readTextFile(readme), current, "--dry-run writes nothing");

    assertEquals((await cli("readme")).code, 0);
    current = await Deno.readTextFile(readme);
    assertMatch(current, /Second description\./);
    assert(!current.includes("First description."));
    assert(current.includes("Hand-written intro.") && current.includes("Kept by hand."), current);
    assertEquals((await cli("readme", "--check")).code, 0);
  });
});

/** Pids of all descendants of `pid` (Linux /proc). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await readText(`/proc/${entry.name}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    parents.set(Number(entry.name), Number(fields[1]));
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent === p) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** True while `pid` runs (a zombie counts as gone). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readText(`/proc/${pid}/stat`);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

Deno.test("hub-plugin build --watch rebuilds on a change and the hub serves the new tool", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const dir = await writePluginProject(join(root, "live"), {
      name: "live",
      source: simplePluginSource(["first"]),
    });
    const hub = await startHub({ configDir });
    const watcher = spawnPluginCli(["build", "--watch", "--dir", dir], {
      configDir,
      env: { HUB_PORT: String(hub.port) },
    });
    let helpers: number[] = [];
    try {
      await watcher.waitFor(/Watching .* for changes/);
      assertMatch(watcher.stdout(), /Built live 0\.1\.0: 1 tool/);
      assertEquals((await listTools(hub, "live")).map((t) => t.name), ["live__first"]);

      await Deno.writeTextFile(
        join(dir, "src", "index.ts"),
        simplePluginSource(["first", "second"]),
      );
      await eventually(
        async () => (await listTools(hub, "live")).some((t) => t.name === "live__second"),
        () =>
          `GET /tools never listed live__second.\nwatcher:\n${watcher.stdout()}${watcher.stderr()}`,
      );
      assertMatch(watcher.stdout(), /Built live 0\.1\.0: 2 tools/);
      assertEquals(watcher.stderr(), "");

      // A broken edit is reported and the watcher keeps going; the hub keeps the last good build.
      const broken = `${simplePluginSource(["first", "second"])}const oops: number = ;\n`;
      await Deno.writeTextFile(join(dir, "src", "index.ts"), broken);
      await watcher.waitFor(/error: The plugin does not compile/, { stream: "stderr" });
      assertEquals((await listTools(hub, "live")).length, 2);
      const source = simplePluginSource(["first", "second", "third"]);
      await Deno.writeTextFile(join(dir, "src", "index.ts"), source);
      await eventually(
        async () => (await listTools(hub, "live")).some((t) => t.name === "live__third"),
        () =>
          `GET /tools never listed live__third.\nwatcher:\n${watcher.stdout()}${watcher.stderr()}`,
      );
      helpers = await descendants(watcher.child.pid);
    } finally {
      await watcher.stop("SIGTERM");
      assertEquals(await hub.stop(), 0);
    }
    assert(!(await alive(watcher.child.pid)), "the watcher exited");
    // esbuild's helper process ends once its parent is gone.
    await eventually(
      async () => (await Promise.all(helpers.map(alive))).every((a) => !a),
      async () => {
        const running = await Promise.all(helpers.map(async (p) => (await alive(p)) ? p : 0));
        return `helper processes still running: ${running.filter((p) => p)}`;
      },
      5_000,
    );
  });
});
