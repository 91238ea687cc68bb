/** `PluginHost.reloadPlugin` (dev mode's reload of one rebuilt local plugin) and `discoveredWith`. */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { addGood, withWorld, writePlugin } from "./_test_plugin_world.ts";

const TOOL = {
  name: "get_items",
  displayName: "Get items",
  description: "Lists items",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
};

Deno.test("a rebuilt plugin is swapped in alone: new adapter file, old one gone, not counted", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const other = await writePlugin(join(ctx.dir, "other"), { name: "other" });
    ctx.config.localPlugins.push(other);
    const host = ctx.host(false);
    await host.load();
    const before = host.registry();
    const otherBefore = before.plugin("other");
    const oldFile = before.plugin("good")!.adapterFile;
    const seen: string[] = [];
    host.onChange((r) => seen.push(r.plugins.map((p) => p.name).join(",")));
    await writePlugin(good, { name: "good", adapter: "(() => { globalThis.v = 2; })();" });

    const result = await host.reloadPlugin(good);

    assertEquals(result.kind, "reloaded");
    const after = host.registry().plugin("good")!;
    assert(after.adapterFile !== oldFile, "the adapter hash changed");
    const json = (value: unknown) => JSON.stringify(value);
    assertEquals(json(host.registry().plugin("other")), json(otherBefore), "other is unchanged");
    const files = [...Deno.readDirSync(ctx.adaptersDir)].map((e) => e.name).sort();
    assertEquals(files, [after.adapterFile, otherBefore!.adapterFile].sort());
    assertEquals(host.stats().count, 0);
    assertEquals(seen, ["good,other"]);
  });
});

Deno.test("a rebuild with new tools shows them in the registry", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    const second = { ...TOOL, name: "count_items", displayName: "Count items" };
    await writePlugin(good, { name: "good", toolsFile: { tools: [TOOL, second] } });
    assertEquals((await host.reloadPlugin(good)).kind, "reloaded");
    assertEquals(host.registry().plugin("good")!.tools.map((t) => t.name), [
      "good__get_items",
      "good__count_items",
    ]);
    assert(host.registry().tool("good__count_items"));
  });
});

Deno.test("the same build again is unchanged and swaps nothing", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    const before = host.registry();
    assertEquals(await host.reloadPlugin(good), { kind: "unchanged", plugin: "good" });
    assertEquals(host.registry(), before);
  });
});

Deno.test("a broken rebuild keeps the last good build serving and says why in failedPlugins", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    const before = host.registry().plugin("good");
    await Deno.writeTextFile(join(good, "dist", "tools.json"), "{ not json");

    const result = await host.reloadPlugin(good);

    assertEquals(result.kind, "failed");
    assertEquals(host.registry().plugin("good"), before);
    assertEquals(host.failedPlugins().map((f) => f.path), [good]);
    assertMatch(host.failedPlugins()[0].error, /tools\.json is broken.*last good build keeps/);
    // Fixed again: the failure goes away, even though the build equals the last good one.
    await writePlugin(good, { name: "good" });
    assertEquals((await host.reloadPlugin(good)).kind, "reloaded");
    assertEquals(host.failedPlugins(), []);
  });
});

Deno.test("a missing adapter is a failed rebuild too", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    await Deno.remove(join(good, "dist", "adapter.iife.js"));
    const result = await host.reloadPlugin(good);
    assert(result.kind === "failed");
    assertMatch(result.error, /adapter\.iife\.js is missing/);
    assert(host.registry().plugin("good"));
  });
});

Deno.test("a renamed, new or unknown plugin asks for a full reload", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    const fresh = await writePlugin(join(ctx.dir, "fresh"), { name: "fresh" });
    const unknown = await host.reloadPlugin(fresh);
    assertEquals(unknown.kind, "full");
    await writePlugin(good, { name: "renamed" });
    const renamed = await host.reloadPlugin(good);
    assert(renamed.kind === "full");
    assertMatch(renamed.reason, /"good" is now named "renamed"/);
    assertEquals(host.registry().plugins.map((p) => p.name), ["good"]);
  });
});

Deno.test("a single-plugin reload waits for a full reload in progress, and the next one for it", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    await writePlugin(good, { name: "good", version: "1.1.0" });
    const order: string[] = [];
    const full = host.reload().then(() => order.push("full"));
    const one = host.reloadPlugin(good).then((r) => order.push(`one ${r.kind}`));
    const again = host.reload().then(() => order.push("full again"));
    await Promise.all([full, one, again]);
    // The full reload already loaded 1.1.0, so the single reload found nothing new.
    assertEquals(order, ["full", "one unchanged", "full again"]);
    assertEquals(host.stats().count, 2);
  });
});

Deno.test("a single-plugin reload that cannot write its adapter fails to its caller only", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const host = ctx.host(false);
    await host.load();
    await writePlugin(good, { name: "good", adapter: "(() => { globalThis.v = 3; })();" });
    await Deno.remove(ctx.adaptersDir, { recursive: true });
    await Deno.writeTextFile(ctx.adaptersDir, "a file where the folder should be");
    let caught: unknown;
    await host.reloadPlugin(good).catch((e) => (caught = e));
    assert(caught instanceof Error, "the caller sees the failure");
    await Deno.remove(ctx.adaptersDir);
    assertEquals((await host.reload()).plugins, 1, "later reloads still run");
  });
});

Deno.test("discoveredWith is the config the last full discovery read, not a later one", async () => {
  await withWorld(async (ctx) => {
    const dir = await addGood(ctx);
    const host = ctx.host(false);
    assertEquals(host.discoveredWith(), undefined, "no discovery yet");
    await host.load();
    const first = ctx.config;
    assertEquals(host.discoveredWith(), first);
    ctx.config = { ...first, localPlugins: [] }; // edited on disk, not rediscovered yet
    assertEquals((await host.reloadPlugin(dir)).kind, "unchanged");
    assertEquals(host.discoveredWith(), first, "a single plugin's reload is no discovery");
    await host.reload();
    assertEquals(host.discoveredWith()?.localPlugins, []);
  });
});

Deno.test("a tool whose input schema is no JSON Schema fails its plugin at load, saying where", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    await writePlugin(good, {
      name: "good",
      toolsFile: {
        tools: [{ ...TOOL, inputSchema: { type: "object", properties: { q: { type: "strin" } } } }],
      },
    });
    const host = ctx.host(false);
    await host.load();
    assertEquals(host.registry().plugin("good"), undefined);
    assertMatch(
      host.failedPlugins()[0].error,
      /tool "get_items" has an invalid input schema \(data\/properties\/q\/type must be/,
    );
  });
});

Deno.test("a tool schema of another JSON Schema dialect fails its plugin at load, naming it", async () => {
  await withWorld(async (ctx) => {
    const good = await addGood(ctx);
    const $schema = "https://json-schema.org/draft/2020-12/schema";
    await writePlugin(good, {
      name: "good",
      toolsFile: { tools: [{ ...TOOL, inputSchema: { ...TOOL.inputSchema, $schema } }] },
    });
    const host = ctx.host(false);
    await host.load();
    assertEquals(host.registry().plugin("good"), undefined);
    assertMatch(
      host.failedPlugins()[0].error,
      /declares "\$schema": "https:\/\/json-schema\.org\/draft\/2020-12\/schema", but hub reads JSON Schema draft-07/,
    );
    // draft-07, as hub-plugin build writes it, loads.
    await writePlugin(good, {
      name: "good",
      toolsFile: {
        tools: [{
          ...TOOL,
          inputSchema: { ...TOOL.inputSchema, $schema: "http://json-schema.org/draft-07/schema#" },
        }],
      },
    });
    await host.load();
    assert(host.registry().plugin("good"));
  });
});
