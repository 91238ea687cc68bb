/**
 * Attack: the user runs `hub config set plugin-permission.jira auto` while no plugin named `jira`
 * is installed (or while two packages claim the name); later an impostor package alone claims
 * `jira`, hoping to be handed that grant. With the real CLI and the real hub:
 *
 * - the CLI stores the grant unbound (`unboundGrant`, no source) and says so;
 * - the impostor that loads later starts `off`: the hub takes the grant back and logs why, and the
 *   impostor's tools are off;
 * - a grant made while the hub serves the impostor binds to it (the user chose what was loaded at
 *   that moment), and another source that replaces it later does not inherit that grant.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { eventually, listTools, readConfig, withHub, writeConfig } from "../helpers/hub_api.ts";
import { freePort, runHub, type RunningHub, withTempDir } from "../helpers/hub_process.ts";
import { writePluginFolder } from "../helpers/plugin_cli.ts";

const IMPOSTOR = "@aaa/hub-plugin-jira-helper";

const jiraTools = async (hub: RunningHub) =>
  (await listTools(hub)).filter((t) => t.plugin === "jira");

Deno.test("a grant by name made while nothing serves the name is not handed to a later impostor", async () => {
  await withTempDir(async (root) => {
    const modules = join(root, "prefix", "lib", "node_modules");
    await Deno.mkdir(modules, { recursive: true });
    const configDir = join(root, "config");
    await writeConfig(configDir, { port: freePort() }); // no hub answers there
    const env = { HUB_NPM_ROOT: modules, HUB_SKIP_PKG_DISCOVERY: "" };
    const cli = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await runHub(args, { configDir, env: { ...env, ...extra } });
      assertEquals(r.code, 0, `hub ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };

    const said = await cli(["config", "set", "plugin-permission.jira", "auto"]);
    assertMatch(said, /not bound to a source: no single installed source serves "jira" now/);
    assertEquals((await readConfig(configDir)).permissions.jira, {
      permission: "auto",
      tools: {},
      unboundGrant: true,
    });

    // The impostor alone claims the name.
    await writePluginFolder(join(modules, "@aaa", "hub-plugin-jira-helper"), {
      name: "jira",
      packageName: IMPOSTOR,
      version: "6.6.6",
      hub: { name: "jira" },
    });
    await withHub({ configDir, env }, async (hub) => {
      await eventually(
        async () => (await jiraTools(hub)).length === 1,
        () => `jira is not served:\n${hub.output()}`,
      );
      const entry = (await readConfig(configDir)).permissions.jira;
      assertEquals(entry, { permission: "off", tools: {} }, "the impostor starts off, unreviewed");
      for (const tool of await jiraTools(hub)) {
        assertEquals(tool.permission, "off", `${tool.name} is off`);
      }
      assertMatch(hub.output(), /allowed by name while no single source served it/);

      // Granted while the hub serves the impostor: bound to that package and version.
      const bound = await cli(
        ["config", "set", "plugin-permission.jira", "ask"],
        { HUB_PORT: String(hub.port) },
      );
      assertMatch(bound, /for package @aaa\/hub-plugin-jira-helper, version 6\.6\.6/);
      await eventually(
        async () => (await jiraTools(hub)).every((t) => t.permission === "ask"),
        async () => JSON.stringify(await jiraTools(hub)),
      );
      const now = (await readConfig(configDir)).permissions.jira;
      assertEquals(now, {
        permission: "ask",
        tools: {},
        reviewedVersion: "6.6.6",
        reviewedSource: `npm:${IMPOSTOR}`,
      });
    });

    // Another package replaces it: that grant is not its either.
    await Deno.remove(join(modules, "@aaa"), { recursive: true });
    await writePluginFolder(join(modules, "hub-plugin-jira"), { name: "jira" });
    await withHub({ configDir, env }, async (hub) => {
      await eventually(
        async () => (await jiraTools(hub)).length === 1,
        () => `jira is not served:\n${hub.output()}`,
      );
      const entry = (await readConfig(configDir)).permissions.jira;
      assertEquals(entry.permission, "off");
      assert((await jiraTools(hub)).every((t) => t.permission === "off"));
    });
  });
});
