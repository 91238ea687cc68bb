import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { createConfigStore } from "../config/config_store.ts";
import { FakeNpm, pluginFiles } from "./_fake_npm.ts";
import { isRegistrySpec } from "./dependency_check.ts";
import { parseDependencies } from "./npm_commands.ts";
import { createPluginPackages, isPackageError } from "./plugin_packages.ts";

Deno.test("dependency specs: version ranges and dist-tags come from the registry, nothing else", () => {
  for (
    const spec of ["1.2.3", "^1.0.0", "~2.1", ">=1 <3", "1.x || 2.x", "*", "", "latest", "next"]
  ) {
    assert(isRegistrySpec(spec), spec);
  }
  const refused = [
    "git+https://github.com/a/b.git",
    "git://github.com/a/b.git",
    "git+ssh://git@github.com:a/b.git#v1",
    "github:a/b",
    "gitlab:a/b",
    "a/b",
    "a/b#main",
    "https://example.com/x.tgz",
    "http://example.com/x.tgz",
    "file:../x",
    "link:../x",
    "npm:other@1.0.0",
    "./x",
    "../x",
    "/abs/x",
    "~/x",
    "C:\\x",
    "workspace:*",
  ];
  for (const spec of refused) assert(!isRegistrySpec(spec), spec);
});

Deno.test("dependency list: npm prints the bare name when there are none, else an object", () => {
  assertEquals(parseDependencies(`"hub-plugin-x"`, "hub-plugin-x@1.0.0").size, 0);
  const deps = parseDependencies(
    JSON.stringify({
      name: "hub-plugin-x",
      dependencies: { a: "^1.0.0" },
      peerDependencies: { b: "github:o/b" },
    }),
    "hub-plugin-x@1.0.0",
  );
  assertEquals([...deps], [["dependencies.a", "^1.0.0"], ["peerDependencies.b", "github:o/b"]]);
  assert.throws(() => parseDependencies("[1]", "x@1"), /no dependency list/);
});

Deno.test("install: a plugin with a git, URL, file or alias dependency is refused before npm installs", async () => {
  const name = "hub-plugin-deps";
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "1.0.0",
      { dependencies: { ok: "^1.0.0", bad: "git+https://example.com/b.git" } },
      /dependencies\.bad/,
    ],
    ["1.0.1", { optionalDependencies: { o: "github:owner/o" } }, /optionalDependencies\.o/],
    ["1.0.2", { peerDependencies: { p: "file:../p" } }, /peerDependencies\.p/],
    ["1.0.3", { dependencies: { q: "npm:other@1" } }, /dependencies\.q is "npm:other@1"/],
  ];
  const dir = await Deno.makeTempDir({ prefix: "hub-deps-test-" });
  try {
    const npm = new FakeNpm().publish(
      name,
      "0.9.0",
      pluginFiles(name, "0.9.0", {
        extra: { dependencies: { fine: "^2.0.0", tagged: "latest" } },
      }),
    );
    for (const [version, extra] of cases) {
      npm.publish(name, version, pluginFiles(name, version, { extra }));
    }
    const root = join(dir, "prefix", "lib", "node_modules");
    const packages = createPluginPackages({
      globalRoot: () => Promise.resolve(root),
      store: createConfigStore(join(dir, "config", "config.json")),
      npm: npm.run,
    });
    assertEquals((await packages.install(`${name}@0.9.0`)).version, "0.9.0", "registry deps pass");
    const view = npm.called("view").find((args) => args.includes("dependencies"));
    assertEquals(view?.slice(0, 6), [
      "view",
      `${name}@0.9.0`,
      "name",
      "dependencies",
      "optionalDependencies",
      "peerDependencies",
    ]);
    for (const args of npm.called("install")) {
      for (
        const flag of [
          "--ignore-scripts",
          "--allow-git=none",
          "--allow-remote=none",
          "--allow-file=none",
        ]
      ) {
        assert(args.includes(flag), `${flag} in ${args.join(" ")}`);
      }
    }
    for (const [version, , pattern] of cases) {
      const installs = npm.called("install").length;
      await assertRejects(() => packages.install(`${name}@${version}`), (error: Error) => {
        assert(isPackageError(error), String(error));
        assertEquals(error.code, "NOT_A_HUB_PLUGIN");
        assertMatch(error.message, pattern);
        assertMatch(error.message, /outside the registry.*Nothing was installed/);
        assert(error.message.length <= 600 && !error.message.includes("\n"));
        return true;
      });
      assertEquals(npm.called("install").length, installs, `npm installed nothing for ${version}`);
    }
    const installed = JSON.parse(await Deno.readTextFile(join(root, name, "package.json")));
    assertEquals(installed.version, "0.9.0");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
