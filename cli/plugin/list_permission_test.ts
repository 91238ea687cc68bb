import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig } from "../../core/config/schema.ts";
import { type Found, overridesPackage, permissionOf } from "./list.ts";

const official: Found = {
  source: "npm",
  plugin: "jira",
  version: "1.0.0",
  packageName: "@tabhub/hub-plugin-jira",
  dir: "/g/node_modules/@tabhub/hub-plugin-jira",
};

Deno.test("plugin list shows the permission the hub applies: another source or version is off", async () => {
  const config = defaultConfig();
  assertEquals(await permissionOf(config, "jira", official), "off", "no entry");
  config.permissions.jira = {
    permission: "auto",
    tools: {},
    reviewedVersion: "1.0.0",
    reviewedSource: "npm:@tabhub/hub-plugin-jira",
  };
  assertEquals(await permissionOf(config, "jira", official), "auto");
  assertEquals(await permissionOf(config, "jira", { ...official, version: "1.1.0" }), "off");
  const impostor = { ...official, dir: "/g/node_modules/@aaa/hub-plugin-jira-helper" };
  // The package folder names the source, whatever its package.json claims.
  assertEquals(await permissionOf(config, "jira", impostor), "off");
  // A legacy grant (no source) holds for its one source, not for a local folder overriding it.
  delete config.permissions.jira.reviewedSource;
  assertEquals(await permissionOf(config, "jira", official), "auto");
  const local: Found = { source: "local", plugin: "jira", version: "1.0.0", dir: "/nowhere/jira" };
  assertEquals(overridesPackage(local, [official, local]), true);
  assertEquals(
    await permissionOf(config, "jira", local, overridesPackage(local, [official, local])),
    "off",
  );
});
