import { join } from "node:path";
import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { listLocalPlugins, localMatches } from "./local_plugins.ts";
import { planRemoval } from "./package_remove.ts";
import { listInstalled } from "./installed_packages.ts";

async function plugin(dir: string, pkg: Record<string, unknown>) {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg));
}

Deno.test("local plugins: localPlugins entries and plugin folders inside localPluginDirs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await plugin(join(dir, "one"), { name: "hub-plugin-one", version: "1.0.0", hub: {} });
    await plugin(join(dir, "many", "two"), {
      name: "anything",
      version: "2.0.0",
      hub: { name: "two" },
    });
    await plugin(join(dir, "many", "not-a-plugin"), { name: "x", version: "1.0.0" });
    const locals = await listLocalPlugins(
      { localPlugins: ["./one", "./missing"], localPluginDirs: ["./many", "./nowhere"] },
      dir,
    );
    assertEquals(locals.map((l) => [l.entry, l.plugin, l.version, l.inPluginDirs]), [
      ["./one", "one", "1.0.0", false],
      ["./missing", undefined, undefined, false],
      ["./many", "two", "2.0.0", true],
    ]);
    assertEquals(localMatches(locals[0], { packageNames: ["hub-plugin-one"] }), true);
    assertEquals(localMatches(locals[2], { packageNames: [], plugin: "two" }), true);
    assertEquals(localMatches(locals[1], { packageNames: [], plugin: "two" }), false);

    assertEquals(planRemoval("one", "/root", [], locals), {
      target: undefined,
      entries: ["./one"],
    });
    assertThrows(
      () => planRemoval("two", "/root", [], locals),
      /plugin folder .*many\/two inside a localPluginDirs folder.*does not delete folders/,
    );
    assertThrows(() => planRemoval("three", "/root", [], locals), /nothing to remove/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("installed packages: plugin folders of a global root, scoped ones and links too", async () => {
  const root = await Deno.makeTempDir();
  try {
    await plugin(join(root, "hub-plugin-a"), { name: "hub-plugin-a", version: "1.0.0" });
    await plugin(join(root, "@s", "hub-plugin-b"), {
      name: "@s/hub-plugin-b",
      version: "2.0.0",
      hub: { name: "bee" },
    });
    await plugin(join(root, "left-pad"), { name: "left-pad", version: "1.0.0" });
    await plugin(join(root, "hub-plugin-wrong"), { name: "hub-plugin-other", version: "1.0.0" });
    await Deno.mkdir(join(root, "hub-plugin-empty"));
    await plugin(join(root, "..", `${root.split("/").pop()}-linked`), {
      name: "hub-plugin-linked",
      version: "3.0.0",
    });
    await Deno.symlink(
      join(root, "..", `${root.split("/").pop()}-linked`),
      join(root, "hub-plugin-linked"),
    );
    assertEquals((await listInstalled(root)).map((p) => [p.name, p.version, p.plugin]), [
      ["@s/hub-plugin-b", "2.0.0", "bee"],
      ["hub-plugin-a", "1.0.0", "a"],
      ["hub-plugin-linked", "3.0.0", "linked"],
    ]);
    assertEquals(await listInstalled(join(root, "none")), []);
    await Deno.remove(join(root, "..", `${root.split("/").pop()}-linked`), { recursive: true });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
