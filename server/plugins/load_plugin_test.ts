import { join } from "node:path";
import { assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { linkToDevZero, replaceWithFifo } from "../../tests/helpers/file_kinds.ts";
import { MAX_ADAPTER_BYTES, MAX_TOOLS_FILE_BYTES } from "../../protocol/plugin_limits.ts";
import { loadPlugin } from "./load_plugin.ts";
import { writePlugin } from "./_test_plugin_world.ts";

const local = (dir: string) => ({ source: "local" as const, dir, specifier: dir });

/** The reason loading fails with. */
const failure = (dir: string) =>
  loadPlugin(local(dir)).then(() => "loaded", (e: Error) => e.message);

Deno.test("loadPlugin: a good plugin loads, its adapter whole", async () => {
  await withTempDir(async (root) => {
    const dir = await writePlugin(join(root, "p"), { name: "p", adapter: "x".repeat(100_000) });
    const loaded = await loadPlugin(local(dir));
    assertEquals(loaded.adapter.code.length, 100_000);
  });
});

Deno.test("loadPlugin: an adapter or tools.json over its limit fails with the limit named", async () => {
  await withTempDir(async (root) => {
    const big = await writePlugin(join(root, "big"), { name: "big" });
    const adapter = join(big, "dist", "adapter.iife.js");
    await Deno.truncate(adapter, MAX_ADAPTER_BYTES + 1); // sparse: no memory, no disk
    assertMatch(
      await failure(big),
      /^dist\/adapter\.iife\.js cannot be used: .*over the limit of 5 MB; it was not read; make it smaller/,
    );
    const tools = await writePlugin(join(root, "tools"), {
      name: "tools",
      toolsFile: { padding: "x".repeat(MAX_TOOLS_FILE_BYTES) },
    });
    assertMatch(
      await failure(tools),
      /^dist\/tools\.json cannot be used: .*over the limit of 2 MB/,
    );
  });
});

Deno.test("loadPlugin: FIFOs and links to /dev/zero are refused, each with the reason", async () => {
  await withTempDir(async (root) => {
    const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
      ["a", (d) => replaceWithFifo(join(d, "dist", "tools.json")), /^dist\/tools\.json .*FIFO/],
      [
        "b",
        (d) => linkToDevZero(join(d, "dist", "adapter.iife.js")),
        /^dist\/adapter.*character device/,
      ],
      [
        "c",
        (d) => replaceWithFifo(join(d, "package.json")),
        /^package\.json cannot be used: .*FIFO/,
      ],
      ["d", (d) => replaceWithFifo(join(d, "dist", "adapter.iife.js")), /FIFO/],
    ];
    for (const [name, spoil, reason] of cases) {
      const dir = await writePlugin(join(root, name), { name });
      await spoil(dir);
      assertMatch(await failure(dir), reason, name);
    }
  });
});

Deno.test("loadPlugin: an icon that is a device or too large fails the plugin; a missing one does not", async () => {
  await withTempDir(async (root) => {
    const packageJson = (name: string) =>
      JSON.stringify({
        name: `hub-plugin-${name}`,
        version: "1.0.0",
        hub: { icon: "icon.svg", urlPatterns: ["*://example.com/*"] },
      });
    const zero = await writePlugin(join(root, "zero"), {
      name: "zero",
      packageJson: packageJson("zero"),
    });
    await linkToDevZero(join(zero, "icon.svg"));
    assertMatch(await failure(zero), /^the icon cannot be used: icon\.svg is a character device/);
    const big = await writePlugin(join(root, "big"), {
      name: "big",
      packageJson: packageJson("big"),
    });
    await Deno.writeTextFile(join(big, "icon.svg"), `<svg>${" ".repeat(70_000)}</svg>`);
    assertMatch(await failure(big), /^the icon cannot be used: .*over the limit of 64 KB/);
    const none = await writePlugin(join(root, "none"), {
      name: "none",
      packageJson: packageJson("none"),
    });
    assertEquals((await loadPlugin(local(none))).iconSvg, undefined);
  });
});

Deno.test("loadPlugin: a tools.json nested a million deep fails with its depth, no RangeError", async () => {
  await withTempDir(async (root) => {
    const dir = await writePlugin(join(root, "deep"), { name: "deep" });
    await Deno.writeTextFile(join(dir, "dist", "tools.json"), "[".repeat(1_000_000));
    await assertRejects(
      () => loadPlugin(local(dir)),
      /tools\.json is broken .*nests deeper than 128/,
    );
  });
});

Deno.test("loadPlugin: a build of an older hub-plugin (no adapter contract) is refused, saying to rebuild", async () => {
  await withTempDir(async (root) => {
    const old = await writePlugin(join(root, "old"), {
      name: "old",
      toolsFile: { adapterContract: undefined },
    });
    assertMatch(
      await failure(old),
      /^its adapter was built by an older hub-plugin, whose hand-over to the page any page script could read and answer; build it again/,
    );
    const newer = await writePlugin(join(root, "newer"), {
      name: "newer",
      toolsFile: { adapterContract: 99 },
    });
    assertMatch(await failure(newer), /built for a newer hub \(adapter contract 99/);
  });
});
