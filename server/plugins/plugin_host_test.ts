import { join } from "node:path";
import { Ajv } from "ajv";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { SDK_VERSION } from "../../protocol/version.ts";
import { addGood, type Ctx, withWorld, writePlugin } from "./_test_plugin_world.ts";
import { loadValidators } from "./validators.ts";

// Validators need ajv, which the pipeline loads before the first call.
await loadValidators();

/** Loads, and checks that only the good plugin loaded and `bad` is the one failure. */
async function expectOneFailure(ctx: Ctx, bad: string, error: RegExp): Promise<void> {
  const host = ctx.host();
  await host.load();
  assertEquals(host.registry().plugins.map((p) => p.name), ["good"]);
  const failed = host.failedPlugins();
  assertEquals(failed.map((f) => f.path), [bad]);
  assertMatch(failed[0].error, error);
}

async function sha256Prefix(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
    .slice(0, 16);
}

// --- loading and precedence ---

Deno.test("a built local plugin is loaded with prefixed tool names", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const host = ctx.host();
    assertEquals((await host.load()).plugins, 1);
    const plugin = host.registry().plugin("good")!;
    assertEquals([plugin.source, plugin.tools.map((t) => t.name)], ["local", ["good__get_items"]]);
    assertEquals(host.failedPlugins(), []);
  });
});

Deno.test("a local plugin overrides a global package of the same name", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "hub-plugin-foo"), { name: "foo", version: "2.0.0" });
    const local = await writePlugin(join(ctx.dir, "foo-dev"), {
      name: "foo",
      version: "2.1.0-dev",
    });
    ctx.config.localPlugins.push(local);
    const host = ctx.host();
    await host.load();
    const plugin = host.registry().plugin("foo")!;
    assertEquals([plugin.source, plugin.dir, plugin.version], ["local", local, "2.1.0-dev"]);
    assertEquals(host.failedPlugins(), []);
  });
});

Deno.test("two local plugins with one name are both refused, each failure naming both", async () => {
  await withWorld(async (ctx) => {
    const first = await writePlugin(join(ctx.dir, "one"), { name: "same" });
    const second = await writePlugin(join(ctx.dir, "two"), { name: "same" });
    ctx.config.localPlugins.push(first, second);
    const host = ctx.host();
    await host.load();
    assertEquals(host.registry().plugin("same"), undefined);
    assertEquals(host.contested(), ["same"]);
    const failed = host.failedPlugins();
    assertEquals(failed.map((f) => f.path), [first, second]);
    for (const f of failed) {
      assertMatch(f.error, /^Plugin name "same" is claimed by 2 sources: /);
      assert(f.error.includes(`folder ${first}`) && f.error.includes(`folder ${second}`), f.error);
      assertMatch(f.error, /"hub plugin remove <package>"/);
    }
  });
});

Deno.test("two packages with one plugin name are both refused; neither takes the name", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "@tabhub", "hub-plugin-jira"), { name: "jira" });
    await writePlugin(join(ctx.npmDir, "@aaa", "hub-plugin-jira-helper"), { name: "jira" });
    const host = ctx.host();
    await host.load();
    assertEquals(host.registry().plugin("jira"), undefined);
    const failed = host.failedPlugins();
    assertEquals(failed.length, 2);
    for (const f of failed) {
      assert(f.error.includes("package @tabhub/hub-plugin-jira"), f.error);
      assert(f.error.includes("package @aaa/hub-plugin-jira-helper"), f.error);
    }
  });
});

Deno.test("a local plugin overriding a package is marked so, with its folder as source", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "hub-plugin-foo"), { name: "foo" });
    const local = await writePlugin(join(ctx.dir, "foo"), { name: "foo" });
    ctx.config.localPlugins.push(local);
    const host = ctx.host();
    await host.load();
    const plugin = host.registry().plugin("foo")!;
    assertEquals([plugin.source, plugin.overrides], ["local", true]);
    assertEquals(plugin.sourceId, `local:${await Deno.realPath(local)}`);
    assertEquals(host.failedPlugins(), []);
  });
});

Deno.test("a rebuilt overriding local plugin stays marked as overriding (dev mode)", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "hub-plugin-foo"), { name: "foo" });
    const local = await writePlugin(join(ctx.dir, "foo"), { name: "foo" });
    ctx.config.localPlugins.push(local);
    const host = ctx.host();
    await host.load();
    await writePlugin(local, { name: "foo", version: "1.0.1" });
    assertEquals((await host.reloadPlugin(local)).kind, "reloaded");
    const plugin = host.registry().plugin("foo")!;
    assertEquals([plugin.version, plugin.overrides], ["1.0.1", true]);
  });
});

Deno.test("an npm plugin's package name is its folder's, not what its package.json claims", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "@aaa", "hub-plugin-jira-helper"), {
      name: "jira",
      packageName: "@tabhub/hub-plugin-jira",
    });
    const host = ctx.host();
    await host.load();
    const plugin = host.registry().plugin("jira")!;
    assertEquals([plugin.packageName, plugin.sourceId], [
      "@aaa/hub-plugin-jira-helper",
      "npm:@aaa/hub-plugin-jira-helper",
    ]);
  });
});

// --- broken plugins land in failedPlugins ---

Deno.test("a broken package.json fails that plugin only", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.dir, "bad"), { name: "bad", packageJson: '{"name": ' });
    ctx.config.localPlugins.push(bad);
    await expectOneFailure(ctx, bad, /^package\.json: .*package\.json is not valid JSON at line 1/);
  });
});

Deno.test("a missing dist/tools.json says the plugin was never built and how to build it", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.dir, "bad"), { name: "bad", toolsFile: null });
    ctx.config.localPlugins.push(bad);
    await expectOneFailure(
      ctx,
      bad,
      new RegExp(
        `^dist/tools\\.json is missing: the plugin was never built; build it again ` +
          `\\("deno task build" or "hub-plugin build" in ${bad}\\)$`,
      ),
    );
  });
});

Deno.test("a tools.json built for another version fails that plugin", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.dir, "bad"), {
      name: "bad",
      version: "1.1.0",
      toolsFile: { version: "1.0.0" },
    });
    ctx.config.localPlugins.push(bad);
    await expectOneFailure(
      ctx,
      bad,
      /was built for bad 1\.0\.0, but package\.json says bad 1\.1\.0/,
    );
  });
});

Deno.test("a missing adapter bundle fails that plugin", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.dir, "bad"), { name: "bad", adapter: null });
    ctx.config.localPlugins.push(bad);
    await expectOneFailure(
      ctx,
      bad,
      /^dist\/adapter\.iife\.js is missing; build it again \("deno task build"/,
    );
  });
});

Deno.test("a plugin built with an incompatible SDK major fails that plugin", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.dir, "bad"), {
      name: "bad",
      toolsFile: { sdkVersion: "99.0.0" },
    });
    ctx.config.localPlugins.push(bad);
    await expectOneFailure(
      ctx,
      bad,
      new RegExp(`^built with plugin SDK 99\\.0\\.0, but this hub speaks SDK ${SDK_VERSION}`),
    );
  });
});

Deno.test("a broken global package is told to be reinstalled, not rebuilt", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const bad = await writePlugin(join(ctx.npmDir, "hub-plugin-bad"), {
      name: "bad",
      adapter: null,
    });
    await expectOneFailure(ctx, bad, /reinstall the package/);
  });
});

Deno.test("discovery errors are reported next to the loaded plugins", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    ctx.config.localPlugins.push("./missing");
    const host = ctx.host();
    await host.load();
    assertEquals(host.registry().plugins.length, 1);
    assertEquals(host.discoveryErrors().map((e) => [e.source, e.specifier]), [[
      "local",
      "./missing",
    ]]);
  });
});

// --- adapters dir ---

Deno.test("each loaded plugin's adapter is written as <name>-<hash>.js", async () => {
  await withWorld(async (ctx) => {
    const code = "(() => 1)();";
    ctx.config.localPlugins.push(
      await writePlugin(join(ctx.dir, "foo"), { name: "foo", adapter: code }),
    );
    const host = ctx.host();
    await host.load();
    const fileName = `foo-${await sha256Prefix(code)}.js`;
    assertEquals(host.registry().plugin("foo")!.adapterFile, fileName);
    assertEquals(await Deno.readTextFile(join(ctx.adaptersDir, fileName)), code);
  });
});

Deno.test("adapters no plugin uses any more are removed, other files are kept", async () => {
  await withWorld(async (ctx) => {
    await Deno.mkdir(ctx.adaptersDir, { recursive: true });
    await Deno.writeTextFile(join(ctx.adaptersDir, "gone-0123456789abcdef.js"), "old");
    await Deno.writeTextFile(join(ctx.adaptersDir, "notes.txt"), "keep");
    const dir = await writePlugin(join(ctx.dir, "foo"), { name: "foo", adapter: "v1" });
    ctx.config.localPlugins.push(dir);
    const host = ctx.host();
    await host.load();
    await writePlugin(dir, { name: "foo", adapter: "v2" });
    await host.reload();
    const files = [];
    for await (const entry of Deno.readDir(ctx.adaptersDir)) files.push(entry.name);
    assertEquals(files.sort(), [`foo-${await sha256Prefix("v2")}.js`, "notes.txt"]);
  });
});

// --- reloads ---

Deno.test("reloads requested while one runs share the single next run, counted once", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const host = ctx.host();
    // The first starts a run; the two that arrive during it (config may have changed since it
    // was read) share one more run instead of getting the stale answer.
    const summaries = await Promise.all([host.reload(), host.reload(), host.reload()]);
    assertEquals(ctx.npmRuns(), 2);
    assert(summaries[1] === summaries[2]);
    assertEquals(host.stats().count, 2);
  });
});

Deno.test("each separate reload() increases the count by one", async () => {
  await withWorld(async (ctx) => {
    const host = ctx.host();
    await host.reload();
    await host.reload();
    assertEquals([ctx.npmRuns(), host.stats().count], [2, 2]);
  });
});

Deno.test("load() is not counted as a reload", async () => {
  await withWorld(async (ctx) => {
    const host = ctx.host();
    await host.load();
    assertEquals(host.stats(), { count: 0, lastTimestamp: 0, lastDurationMs: 0 });
  });
});

Deno.test("a reload records its time and duration from the clock", async () => {
  await withWorld(async (ctx) => {
    const host = ctx.host();
    const summary = await host.reload();
    const stats = host.stats();
    assertEquals(stats.lastDurationMs, summary.durationMs);
    assert(stats.lastDurationMs > 0 && stats.lastTimestamp > 1_000);
  });
});

Deno.test("a reload picks up removed plugins and notifies listeners", async () => {
  await withWorld(async (ctx) => {
    await addGood(ctx);
    const host = ctx.host();
    const seen: string[][] = [];
    host.onChange((registry) => seen.push(registry.plugins.map((p) => p.name)));
    await host.load();
    ctx.config.localPlugins = [];
    await host.reload();
    assertEquals(seen, [["good"], []]);
    assertEquals(host.registry().tool("good__get_items"), undefined);
  });
});

Deno.test("without npm discovery only local plugins are loaded", async () => {
  await withWorld(async (ctx) => {
    await writePlugin(join(ctx.npmDir, "hub-plugin-foo"), { name: "foo" });
    await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    assertEquals(host.registry().plugins.map((p) => p.name), ["good"]);
  });
});

// Documents a finding: validators compiled after a reload are never carried into the next one.
Deno.test("a tool's compiled validator is reused by the next reload when its schema is unchanged", async () => {
  const proto = Ajv.prototype as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(proto, "compile");
  const original = proto.compile as (...args: unknown[]) => unknown;
  let compiles = 0;
  proto.compile = function (this: unknown, ...args: unknown[]) {
    compiles++;
    return original.apply(this, args);
  };
  try {
    await withWorld(async (ctx) => {
      await addGood(ctx);
      const host = ctx.host();
      await host.load();
      host.registry().tool("good__get_items")!.validate({ q: "a" });
      await host.reload();
      host.registry().tool("good__get_items")!.validate({ q: "b" });
      assertEquals(compiles, 1);
    });
  } finally {
    if (own) Object.defineProperty(proto, "compile", own);
    else delete proto.compile;
  }
});
