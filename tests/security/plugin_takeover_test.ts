/**
 * Attack: a community package (`@aaa/hub-plugin-jira-helper`) names its plugin `jira`, the name of
 * an installed official package that the user allowed (`auto`), hoping to inherit that grant and to
 * push the official package out. Against a real registry (verdaccio) and the real hub:
 *
 * - both packages are refused while they claim one name, each failure naming both, and the CLI
 *   says the hub did not load the impostor (not "its tools are off until you allow them");
 * - `hub plugin remove jira` refuses to guess, naming both packages;
 * - once the official package is gone, the impostor serves `jira` but starts `off`: the grant was
 *   bound to the official package (`reviewedSource`) and does not transfer;
 * - it runs on every site (`<all_urls>`), and `hub plugin install` and `hub plugin list` say so;
 * - `hub plugin remove jira --confirm` then removes the impostor (the source serving the name),
 *   leaving nothing that serves `jira`;
 * - when a folder inside `localPluginDirs` overrides the package, `remove jira` uninstalls the
 *   package and says that the folder stays and keeps serving (hub deletes no folder).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { api, health, listTools, readConfig, writeConfig } from "../helpers/hub_api.ts";
import { runHub, type RunResult, startHub } from "../helpers/hub_process.ts";
import { globalRoot } from "../helpers/npm_install.ts";
import { buildTestPluginPackage } from "../helpers/plugin_packages.ts";
import { startRegistry, type TestRegistry } from "../helpers/registry.ts";

const OFFICIAL = "@tabhub/hub-plugin-jira";
const IMPOSTOR = "@aaa/hub-plugin-jira-helper";

async function publish(
  registry: TestRegistry,
  name: string,
  edit?: Parameters<typeof buildTestPluginPackage>[3],
) {
  const work = await Deno.makeTempDir({ prefix: "hub-takeover-" });
  try {
    await registry.publish(await buildTestPluginPackage(work, name, "1.0.0", edit));
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

Deno.test("a package cannot take over another plugin's name or its grant", async (t) => {
  const registry = await startRegistry();
  const work = await Deno.makeTempDir({ prefix: "hub-takeover-e2e-" });
  const configDir = join(work, "config");
  const root = globalRoot(join(work, "prefix"));
  await Deno.mkdir(root, { recursive: true });
  const env = registry.env({ HUB_NPM_ROOT: root, HUB_SKIP_PKG_DISCOVERY: "" });
  const hub = await startHub({ configDir, env });
  const cli = async (args: string[], code = 0): Promise<RunResult> => {
    const r = await runHub(args, {
      configDir,
      env: { ...env, HUB_PORT: String(hub.port) },
      timeoutMs: 180_000,
    });
    assertEquals(r.code, code, `hub ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const jiraTools = async () => (await listTools(hub)).filter((t) => t.plugin === "jira");
  try {
    await publish(registry, OFFICIAL);
    await publish(registry, IMPOSTOR, (pkg) => {
      pkg.hub.name = "jira";
      pkg.hub.urlPatterns = ["<all_urls>"];
    });

    await t.step("the official package is installed and allowed (auto)", async () => {
      await cli(["plugin", "install", "jira"]);
      await cli(["config", "set", "plugin-permission.jira", "auto"]);
      const entry = (await readConfig(configDir)).permissions.jira;
      assertEquals(
        [entry.permission, entry.reviewedVersion, entry.reviewedSource],
        ["auto", "1.0.0", `npm:${OFFICIAL}`],
        "the grant is bound to the official package",
      );
      const tools = await jiraTools();
      assert(
        tools.length > 0 && tools.every((t) => t.permission === "auto"),
        JSON.stringify(tools),
      );
    });

    await t.step("the impostor is refused with the official one, both named", async () => {
      const r = await cli(["plugin", "install", IMPOSTOR]);
      assertMatch(
        r.stdout,
        /Warning: plugin "jira" runs on every website you visit \(<all_urls>\)/,
      );
      assertMatch(r.stdout, /The hub did not load it: Plugin name "jira" is claimed by 2 sources/);
      assert(!r.stdout.includes("Its tools are off until you allow them"), r.stdout);
      const h = await health(hub);
      assertEquals(h.pluginDetails.filter((p) => p.name === "jira"), [], "neither serves jira");
      assertEquals(h.failedPlugins.length, 2);
      for (const failed of h.failedPlugins) {
        assert(failed.error.includes(`package ${OFFICIAL}`), failed.error);
        assert(failed.error.includes(`package ${IMPOSTOR}`), failed.error);
      }
      assertEquals(await jiraTools(), []);
    });

    await t.step("remove jira refuses to guess which package to remove", async () => {
      const r = await cli(["plugin", "remove", "jira", "--confirm"], 1);
      assertMatch(r.stderr, /"jira" is claimed by 2 packages: .*@aaa\/hub-plugin-jira-helper/);
      assertMatch(r.stderr, /@tabhub\/hub-plugin-jira/);
      assertEquals((await Deno.stat(join(root, OFFICIAL))).isDirectory, true, "nothing removed");
    });

    await t.step(
      "alone, the impostor serves jira but starts off: the grant did not transfer",
      async () => {
        await cli(["plugin", "remove", OFFICIAL, "--confirm"]);
        const h = await health(hub);
        const jira = h.pluginDetails.find((p) => p.name === "jira");
        assertEquals(jira?.source, "npm");
        assertEquals(h.failedPlugins, []);
        const entry = (await readConfig(configDir)).permissions.jira;
        assertEquals([entry.permission, entry.tools], ["off", {}], "the grant was taken back");
        assertEquals(
          entry.reviewedSource,
          `npm:${OFFICIAL}`,
          "the impostor is not recorded as reviewed",
        );
        const tools = await listTools(hub, "jira");
        assert(tools.length > 0 && tools.every((t) => t.description.startsWith("[Disabled]")));
        const list = await cli(["plugin", "list"]);
        assertMatch(list.stdout, /jira\s+1\.0\.0\s+npm\s+off\s/);
        assertMatch(list.stdout, /warning: Runs on every website you visit \(<all_urls>\)\./);
        // remove jira now names the package that actually serves it.
        const plan = await cli(["plugin", "remove", "jira"], 1);
        assertMatch(plan.stderr, /This removes the package @aaa\/hub-plugin-jira-helper 1\.0\.0/);
      },
    );

    await t.step(
      "remove jira removes the impostor that serves it, and nothing is left",
      async () => {
        const r = await cli(["plugin", "remove", "jira", "--confirm"]);
        assertMatch(r.stdout, /^Uninstalled @aaa\/hub-plugin-jira-helper\./);
        await assertRejects(() => Deno.stat(join(root, IMPOSTOR)), Deno.errors.NotFound);
        await assertRejects(() => Deno.stat(join(root, OFFICIAL)), Deno.errors.NotFound);
        const h = await health(hub);
        assertEquals(h.pluginDetails.filter((p) => p.name === "jira"), [], "nothing serves jira");
        assertEquals(h.failedPlugins, []);
        assertEquals(await jiraTools(), []);
      },
    );

    await t.step(
      "a localPluginDirs folder overriding the package: remove jira says that folder stays",
      async () => {
        await cli(["plugin", "install", "jira"]);
        const built = await buildTestPluginPackage(
          join(work, "build"),
          "jira-dev",
          "0.1.0",
          (pkg) => {
            pkg.hub.name = "jira";
          },
        );
        const folder = join(work, "dev-plugins", "jira-dev");
        await Deno.mkdir(join(work, "dev-plugins"));
        await Deno.rename(built, folder);
        const config = await readConfig(configDir);
        await writeConfig(configDir, { ...config, localPluginDirs: [join(work, "dev-plugins")] });
        assertEquals((await api(hub, "POST", "/reload")).status, 200);
        const served = async () => (await health(hub)).pluginDetails.find((p) => p.name === "jira");
        assertEquals((await served())?.source, "local", "the folder overrides the package");
        const plan = await cli(["plugin", "remove", "jira"], 1);
        assertMatch(plan.stderr, /This removes the package @tabhub\/hub-plugin-jira 1\.0\.0/);
        assertMatch(
          plan.stderr,
          /The plugin folder \S*jira-dev inside a localPluginDirs folder stays/,
        );
        const r = await cli(["plugin", "remove", "jira", "--confirm"]);
        assertMatch(
          r.stdout,
          /^Uninstalled @tabhub\/hub-plugin-jira\. The plugin folder \S*jira-dev/,
        );
        assertMatch(r.stdout, /move or delete it yourself/);
        await assertRejects(() => Deno.stat(join(root, OFFICIAL)), Deno.errors.NotFound);
        assertEquals((await served())?.source, "local", "what is left: the folder, as it said");
      },
    );
  } finally {
    await hub.stop();
    await registry.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
