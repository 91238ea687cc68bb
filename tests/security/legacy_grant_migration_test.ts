/**
 * Configs written before grants were bound to a source hold `reviewedVersion` alone. With the real
 * hub: such a grant stays with the single source serving it (bound to it at the first load), and is
 * taken back when a local plugin overrides a package of that name, since nobody can tell which of
 * the two was reviewed; a package impostor that shares the name is refused with the original.
 */
import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { health, readConfig, withHub, writeConfig } from "../helpers/hub_api.ts";
import { withTempDir } from "../helpers/hub_process.ts";
import { writePluginFolder } from "../helpers/plugin_cli.ts";

const legacy = { permission: "auto", tools: {}, reviewedVersion: "1.0.0" };

Deno.test("a version-only grant binds to its single source, and is taken back when contested", async () => {
  await withTempDir(async (root) => {
    const modules = join(root, "prefix", "lib", "node_modules");
    const solo = await writePluginFolder(join(root, "plugins", "solo"), { name: "solo" });
    await writePluginFolder(join(modules, "hub-plugin-shadow"), { name: "shadow" });
    const shadow = await writePluginFolder(join(root, "plugins", "shadow"), { name: "shadow" });
    await writePluginFolder(join(modules, "@tabhub", "hub-plugin-jira"), {
      name: "jira",
      packageName: "@tabhub/hub-plugin-jira",
    });
    await writePluginFolder(join(modules, "@aaa", "hub-plugin-jira-helper"), {
      name: "jira",
      packageName: "@aaa/hub-plugin-jira-helper",
      hub: { name: "jira" },
    });
    const configDir = join(root, "config");
    await writeConfig(configDir, {
      localPlugins: [solo, shadow],
      permissions: { solo: legacy, shadow: legacy, jira: legacy },
    });
    const env = { HUB_NPM_ROOT: modules, HUB_SKIP_PKG_DISCOVERY: "" };
    await withHub({ configDir, env }, async (hub) => {
      const permissions = (await readConfig(configDir)).permissions;
      assertEquals(permissions.solo, {
        ...legacy,
        reviewedSource: `local:${await Deno.realPath(solo)}`,
      }, "a user's single source keeps its grant, now bound to it");
      assertEquals(
        [permissions.shadow.permission, permissions.shadow.reviewedSource],
        ["off", undefined],
        "a local plugin overriding a package: unknown which was reviewed, so taken back",
      );
      assertEquals(
        [permissions.jira.permission, permissions.jira.reviewedSource],
        ["off", undefined],
        "two packages claiming the name: taken back, neither loads",
      );
      const h = await health(hub);
      assertEquals(h.pluginDetails.map((p) => p.name).sort(), ["shadow", "solo"]);
      assertEquals(h.failedPlugins.length, 2);
    });
  });
});
