import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import type { PackageProgress } from "../../protocol/packages.ts";
import { createConfigStore } from "../config/config_store.ts";
import { FakeNpm, pluginFiles } from "./_fake_npm.ts";
import {
  createPluginPackages,
  isPackageError,
  type PackageErrorCode,
  type PluginPackages,
} from "./plugin_packages.ts";

interface Setup {
  npm: FakeNpm;
  packages: PluginPackages;
  root: string;
  prefix: string;
  dir: string;
  progress: PackageProgress[];
  store: ReturnType<typeof createConfigStore>;
}

async function withPackages(
  npm: FakeNpm,
  fn: (s: Setup) => Promise<void>,
  timeoutMs?: number,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hub-packages-test-" });
  try {
    const prefix = join(dir, "prefix");
    const root = join(prefix, "lib", "node_modules");
    const store = createConfigStore(join(dir, "config", "config.json"));
    const progress: PackageProgress[] = [];
    const packages = createPluginPackages({
      globalRoot: () => Promise.resolve(root),
      store,
      npm: npm.run,
      timeoutMs,
      onProgress: (p) => progress.push(p),
    });
    await fn({ npm, packages, root, prefix, dir, progress, store });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function rejectsWithCode(promise: Promise<unknown>, code: PackageErrorCode, pattern: RegExp) {
  await assertRejects(promise, (error: Error) => {
    assert(isPackageError(error), `not a package error: ${error.stack}`);
    assertEquals(error.code, code, error.message);
    assertMatch(error.message, pattern);
    assert(!error.message.includes("\n") && error.message.length <= 600, error.message);
    return true;
  });
}

const installedVersion = async (root: string, name: string) => {
  try {
    return JSON.parse(await Deno.readTextFile(join(root, name, "package.json"))).version;
  } catch {
    return undefined;
  }
};

Deno.test("install: a shorthand is the official package first, then the community one", async () => {
  const npm = new FakeNpm()
    .publish("@tabhub/hub-plugin-alpha", "1.0.0")
    .publish("hub-plugin-alpha", "2.0.0")
    .publish("hub-plugin-beta", "1.2.0");
  await withPackages(npm, async ({ packages, root }) => {
    assertEquals(await packages.install("alpha"), {
      name: "@tabhub/hub-plugin-alpha",
      plugin: "alpha",
      version: "1.0.0",
      urlPatterns: ["https://example.com/*"],
    });
    assertEquals(await installedVersion(root, "hub-plugin-alpha"), undefined);
    assertEquals((await packages.install("beta")).name, "hub-plugin-beta");
    assertEquals(
      (await packages.install("hub-plugin-alpha")).version,
      "2.0.0",
      "full names as given",
    );
    await rejectsWithCode(
      packages.install("gamma"),
      "PACKAGE_NOT_FOUND",
      /neither @tabhub\/hub-plugin-gamma nor hub-plugin-gamma is published/,
    );
    assertEquals((await packages.installed()).map((p) => [p.name, p.version, p.plugin]), [
      ["@tabhub/hub-plugin-alpha", "1.0.0", "alpha"],
      ["hub-plugin-alpha", "2.0.0", "alpha"],
      ["hub-plugin-beta", "1.2.0", "beta"],
    ]);
  });
});

Deno.test("install: scripts off, staged in a temp prefix, then installed from the same cache", async () => {
  const npm = new FakeNpm().publish("@acme/hub-plugin-x", "1.0.0").publish(
    "@acme/hub-plugin-x",
    "1.5.0",
  );
  await withPackages(npm, async ({ packages, prefix, root, progress }) => {
    const result = await packages.install("@acme/hub-plugin-x@~1.0");
    assertEquals([result.name, result.plugin, result.version], [
      "@acme/hub-plugin-x",
      "x",
      "1.0.0",
    ]);
    const installs = npm.called("install");
    assertEquals(installs.length, 2);
    const flag = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`));
    for (const args of installs) {
      assert(args.includes("--ignore-scripts"), args.join(" "));
      assert(args.includes("--no-bin-links"), `no bin or man links: ${args.join(" ")}`);
      assertEquals(args.at(-1), "@acme/hub-plugin-x@1.0.0");
    }
    assert(flag(installs[0], "prefix") !== `--prefix=${prefix}`, "the first install is staged");
    assertEquals(flag(installs[1], "prefix"), `--prefix=${prefix}`);
    assertEquals(flag(installs[0], "cache"), flag(installs[1], "cache"));
    assert(installs[1].includes("--prefer-offline"));
    assertEquals(await installedVersion(root, "@acme/hub-plugin-x"), "1.0.0");
    assertEquals(progress.map((p) => p.done), [false, false, false, false, true]);
    assert(
      progress.every((p) => p.operation === "install" && p.name === "@acme/hub-plugin-x@~1.0"),
    );
    assertMatch(progress[1].message, /^Downloading @acme\/hub-plugin-x@1\.0\.0/);
    assertMatch(progress[2].message, /^Checking that .* is a hub plugin/);
    assertMatch(progress[4].message, /^Installed @acme\/hub-plugin-x 1\.0\.0$/);
  });
});

Deno.test("install: an invalid package is refused and leaves the installed version working", async () => {
  const name = "hub-plugin-beta";
  const cases: [string, Record<string, unknown>, PackageErrorCode, RegExp][] = [
    ["2.0.0", { hub: undefined }, "NOT_A_HUB_PLUGIN", /has no "hub" field/],
    ["2.0.1", { adapter: false }, "NOT_A_HUB_PLUGIN", /no dist\/adapter\.iife\.js/],
    ["2.0.2", { toolsVersion: "1.0.0" }, "NOT_A_HUB_PLUGIN", /built for beta 1\.0\.0/],
    ["2.0.3", { sdkVersion: "99.0.0" }, "INCOMPATIBLE_SDK", /SDK 99\.0\.0.*nothing was installed/],
    ["2.0.4", { hub: { urlPatterns: [] } }, "NOT_A_HUB_PLUGIN", /hub\.urlPatterns/],
  ];
  for (const [version, changes, code, pattern] of cases) {
    const npm = new FakeNpm().publish(name, "1.0.0").publish(
      name,
      version,
      pluginFiles(name, version, changes),
    );
    await withPackages(npm, async ({ packages, root }) => {
      await packages.install(`${name}@1.0.0`);
      const before = npm.called("install").length;
      await rejectsWithCode(packages.install("beta"), code, pattern);
      assertEquals(npm.called("install").length, before + 1, "only the staging install ran");
      assertEquals(await installedVersion(root, name), "1.0.0");
      await rejectsWithCode(packages.update("beta"), code, pattern);
      assertEquals(await installedVersion(root, name), "1.0.0");
    });
  }
});

Deno.test("operations on one package run one at a time; different packages side by side", async () => {
  const npm = new FakeNpm().publish("hub-plugin-a", "1.0.0").publish("hub-plugin-b", "1.0.0");
  npm.installDelayMs = 30;
  await withPackages(npm, async ({ packages, root }) => {
    const results = await Promise.all([
      packages.install("a"),
      packages.install("hub-plugin-a"),
      packages.install("a"),
    ]);
    assertEquals(npm.maxParallel, 1);
    // Whichever came first installed it; the others found it installed.
    assertEquals(results.map((r) => r.previousVersion).sort(), ["1.0.0", "1.0.0", undefined]);
    assertEquals(await installedVersion(root, "hub-plugin-a"), "1.0.0");
    npm.maxParallel = 0;
    npm.maxOverall = 0;
    await Promise.all([packages.install("a"), packages.install("b")]);
    assertEquals([npm.maxParallel, npm.maxOverall], [1, 2], "two packages ran side by side");
  });
});

Deno.test("every npm call gets the time limit; a timeout is a TIMEOUT error", async () => {
  const npm = new FakeNpm().publish("hub-plugin-a", "1.0.0");
  await withPackages(npm, async ({ packages }) => {
    await packages.install("hub-plugin-a");
    assert(npm.calls.every((c) => c.timeoutMs === 2_000), JSON.stringify(npm.calls));
    npm.handler = (args) => args[0] === "install" ? { code: 143, timedOut: true } : undefined;
    await rejectsWithCode(
      packages.install("hub-plugin-a"),
      "TIMEOUT",
      /did not finish installing hub-plugin-a@1\.0\.0 within 2 s/,
    );
    npm.handler = (args) => args[0] === "search" ? { code: 143, timedOut: true } : undefined;
    await rejectsWithCode(packages.search(), "TIMEOUT", /within 2 s/);
  }, 2_000);
  const defaults = new FakeNpm().publish("hub-plugin-a", "1.0.0");
  await withPackages(defaults, async ({ packages }) => {
    await packages.install("hub-plugin-a");
    await packages.search();
    const limit = (command: string) => defaults.calls.find((c) => c.args[0] === command)?.timeoutMs;
    assertEquals([limit("view"), limit("install"), limit("search")], [30_000, 120_000, 30_000]);
  });
});

Deno.test("a registry that is down, and npm failures, become clear errors", async () => {
  const npm = new FakeNpm().publish("hub-plugin-a", "1.0.0");
  await withPackages(npm, async ({ packages }) => {
    await packages.install("hub-plugin-a");
    npm.down = true;
    const down = /Cannot reach the npm registry http:\/\/registry\.test\/ while .*ECONNREFUSED/;
    await rejectsWithCode(packages.install("a"), "REGISTRY_UNREACHABLE", down);
    await rejectsWithCode(packages.search("x"), "REGISTRY_UNREACHABLE", down);
    await rejectsWithCode(packages.checkUpdates(), "REGISTRY_UNREACHABLE", down);
    await rejectsWithCode(packages.update("a"), "REGISTRY_UNREACHABLE", down);
    npm.down = false;
    npm.handler = (args) =>
      args[0] === "install"
        ? { code: 1, stderr: "npm error code EACCES\nnpm error permission denied\n" }
        : undefined;
    await rejectsWithCode(packages.install("a"), "NPM_FAILED", /may not write .* \(EACCES\)/);
    await rejectsWithCode(packages.install("a@9"), "PACKAGE_NOT_FOUND", /no version that matches/);
    await rejectsWithCode(packages.install("../a"), "INVALID_NAME", /path or URL/);
  });
});

Deno.test("update: installs the latest version; nothing when it is the latest already", async () => {
  const npm = new FakeNpm().publish("@tabhub/hub-plugin-a", "1.0.0");
  await withPackages(npm, async ({ packages, root }) => {
    await rejectsWithCode(packages.update("a"), "NOT_INSTALLED", /hub plugin install a/);
    await packages.install("a");
    const same = await packages.update("a");
    assertEquals([same.version, same.previousVersion], ["1.0.0", "1.0.0"]);
    assertEquals(npm.called("install").length, 2, "no install for an up-to-date package");
    npm.publish("@tabhub/hub-plugin-a", "1.1.0");
    assertEquals((await packages.checkUpdates()).updates, [{
      name: "@tabhub/hub-plugin-a",
      plugin: "a",
      installedVersion: "1.0.0",
      latestVersion: "1.1.0",
    }]);
    const updated = await packages.update("@tabhub/hub-plugin-a");
    assertEquals([updated.version, updated.previousVersion], ["1.1.0", "1.0.0"]);
    assertEquals(await installedVersion(root, "@tabhub/hub-plugin-a"), "1.1.0");
    assertEquals((await packages.checkUpdates()).updates, []);
    await rejectsWithCode(packages.update("a@2"), "INVALID_NAME", /without a version/);
  });
});

Deno.test("checkUpdates: a few at a time; an unpublished package is skipped", async () => {
  const npm = new FakeNpm();
  for (let i = 0; i < 9; i++) npm.publish(`hub-plugin-p${i}`, "1.0.0");
  await withPackages(npm, async ({ packages, root, store }) => {
    for (let i = 0; i < 9; i++) await packages.install(`p${i}`);
    for (let i = 0; i < 9; i++) npm.publish(`hub-plugin-p${i}`, "1.0.1");
    npm.packages.delete("hub-plugin-p8");
    let active = 0;
    let most = 0;
    const counting = async (args: string[], timeoutMs: number) => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 5));
      return await npm.run(args, timeoutMs).finally(() => active--);
    };
    const check = await createPluginPackages({
      globalRoot: () => Promise.resolve(root),
      store,
      npm: counting,
    }).checkUpdates();
    assertEquals(
      check.updates.map((u) => u.name),
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `hub-plugin-p${i}`),
    );
    assertEquals(check.error, undefined);
    assert(most > 1 && most <= 4, `at most 4 npm calls at once, saw ${most}`);
    assert(check.checkedAt > Date.now() - 60_000);
    npm.handler = (args) =>
      args[1] === "hub-plugin-p3"
        ? { code: 1, stderr: "npm error code E500\nnpm error oops\n" }
        : undefined;
    const partial = await packages.checkUpdates();
    assertEquals(partial.updates.length, 7);
    assertMatch(partial.error!, /Could not check 1 package: hub-plugin-p3: npm failed/);
  });
});

Deno.test("remove: by shorthand, package or plugin name, with matching localPlugins entries", async () => {
  const npm = new FakeNpm().publish("hub-plugin-beta", "1.0.0").publish(
    "@x/hub-plugin-gamma",
    "1.0.0",
  );
  await withPackages(npm, async ({ packages, root, dir, store }) => {
    await packages.install("beta");
    await packages.install("@x/hub-plugin-gamma");
    const local = join(dir, "beta-dev");
    await Deno.mkdir(local);
    await Deno.writeTextFile(
      join(local, "package.json"),
      pluginFiles("hub-plugin-beta", "0.9.0")["package.json"],
    );
    const other = join(dir, "other");
    await Deno.mkdir(other);
    await store.update((c) => c.localPlugins.push(local, other));
    assertEquals(await packages.remove("beta"), {
      name: "hub-plugin-beta",
      uninstalled: true,
      localPluginsRemoved: [local],
    });
    assertEquals(await installedVersion(root, "hub-plugin-beta"), undefined);
    assertEquals((await store.load()).localPlugins, [other]);
    assertEquals((await packages.remove("gamma")).name, "@x/hub-plugin-gamma", "by plugin name");
    await rejectsWithCode(packages.remove("beta"), "NOT_INSTALLED", /nothing to remove/);
    await Deno.writeTextFile(
      join(local, "package.json"),
      pluginFiles("hub-plugin-beta", "1.0.0")["package.json"],
    );
    await store.update((c) => c.localPlugins.push(local));
    assertEquals(await packages.remove("hub-plugin-beta"), {
      name: "hub-plugin-beta",
      uninstalled: false,
      localPluginsRemoved: [local],
    });
  });
});

Deno.test("search: plugin packages only, official first, with what is installed", async () => {
  const npm = new FakeNpm()
    .publish("hub-plugin-b", "1.0.0")
    .publish("@tabhub/hub-plugin-z", "2.0.0")
    .publish("hub-plugins-list", "1.0.0")
    .publish("not-hub-plugin-x", "1.0.0");
  await withPackages(npm, async ({ packages, progress }) => {
    await packages.install("b");
    const result = await packages.search();
    assertEquals(result.packages.map((p) => [p.name, p.official, p.installedVersion]), [
      ["@tabhub/hub-plugin-z", true, undefined],
      ["hub-plugin-b", false, "1.0.0"],
    ]);
    assertEquals(result.packages[1].author, "tester");
    assertEquals(npm.called("search").at(-1)!.slice(-1), ["hub-plugin"]);
    assertEquals((await packages.search("z")).packages.map((p) => p.name), [
      "@tabhub/hub-plugin-z",
    ]);
    assertEquals(npm.called("search").at(-1)!.slice(-2), ["hub-plugin", "z"]);
    assertEquals(progress.at(-1), {
      operation: "search",
      name: undefined,
      message: "Found 1 plugin package",
      done: true,
    });
  });
});

Deno.test("install: a package declaring bin and man entries is installed without them, and says so", async () => {
  const files = pluginFiles("hub-plugin-tools", "1.0.0", {
    extra: { bin: { git: "x.js", ls: "y.js" }, man: ["./man/tools.1"] },
  });
  const npm = new FakeNpm().publish("hub-plugin-tools", "1.0.0", files);
  await withPackages(npm, async ({ packages }) => {
    const result = await packages.install("hub-plugin-tools");
    assertEquals(result.notLinked, { bin: ["git", "ls"], man: ["./man/tools.1"] });
    assert(npm.called("install").every((args) => args.includes("--no-bin-links")));
  });
});

/** `@aaa/hub-plugin-jira-helper`, a package that names its plugin "jira". */
function impostorFiles() {
  const files = pluginFiles("@aaa/hub-plugin-jira-helper", "1.0.0", {
    hub: { name: "jira", urlPatterns: ["<all_urls>"] },
  });
  const tools = JSON.parse(files["dist/tools.json"]);
  files["dist/tools.json"] = JSON.stringify({ ...tools, plugin: "jira" });
  return files;
}

Deno.test("remove: a plugin name two packages claim is refused, naming both; the package name works", async () => {
  const npm = new FakeNpm()
    .publish("@tabhub/hub-plugin-jira", "1.0.0")
    .publish(
      "@aaa/hub-plugin-jira-helper",
      "1.0.0",
      impostorFiles(),
    );
  await withPackages(npm, async ({ packages, root }) => {
    await packages.install("jira");
    await packages.install("@aaa/hub-plugin-jira-helper");
    await rejectsWithCode(
      packages.remove("jira"),
      "INVALID_NAME",
      /"jira" is claimed by 2 packages: @aaa\/hub-plugin-jira-helper 1\.0\.0 and @tabhub\/hub-plugin-jira 1\.0\.0/,
    );
    assertEquals(
      await installedVersion(root, "@tabhub/hub-plugin-jira"),
      "1.0.0",
      "nothing removed",
    );
    assertEquals(
      (await packages.remove("@aaa/hub-plugin-jira-helper")).name,
      "@aaa/hub-plugin-jira-helper",
    );
    // The impostor alone claims no name now; "jira" is the official package again.
    assertEquals((await packages.remove("jira")).name, "@tabhub/hub-plugin-jira");
  });
});

Deno.test("remove: a plugin name stands for the package serving it, whatever it is called", async () => {
  const npm = new FakeNpm().publish(
    "@aaa/hub-plugin-jira-helper",
    "1.0.0",
    impostorFiles(),
  );
  await withPackages(npm, async ({ packages }) => {
    await packages.install("@aaa/hub-plugin-jira-helper");
    assertEquals((await packages.remove("jira")).name, "@aaa/hub-plugin-jira-helper");
  });
});

Deno.test("remove: a localPlugins entry as written removes that entry alone", async () => {
  await withPackages(new FakeNpm(), async ({ packages, dir, store }) => {
    const local = join(dir, "my-app");
    await Deno.mkdir(local);
    await Deno.writeTextFile(
      join(local, "package.json"),
      pluginFiles("hub-plugin-my-app", "0.1.0")["package.json"],
    );
    await store.update((c) => c.localPlugins.push(local, "./relative-entry"));
    assertEquals(await packages.remove(local), {
      name: local,
      uninstalled: false,
      localPluginsRemoved: [local],
    });
    assertEquals((await store.load()).localPlugins, ["./relative-entry"]);
    assertEquals((await packages.remove("./relative-entry")).localPluginsRemoved, [
      "./relative-entry",
    ]);
    await rejectsWithCode(packages.remove("/not/an/entry"), "INVALID_NAME", /looks like a path/);
  });
});
