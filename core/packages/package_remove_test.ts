import { assertEquals } from "../../tests/helpers/assert.ts";
import type { InstalledPackage } from "./installed_packages.ts";
import type { LocalPlugin } from "./local_plugins.ts";
import { planRemoval } from "./package_remove.ts";

const official: InstalledPackage = {
  name: "@tabhub/hub-plugin-jira",
  version: "1.0.0",
  plugin: "jira",
  dir: "/g/@tabhub/hub-plugin-jira",
};
const inDirs: LocalPlugin = {
  entry: "/dev-plugins",
  inPluginDirs: true,
  dir: "/dev-plugins/jira",
  plugin: "jira",
  packageName: "jira-dev",
  version: "0.1.0",
};
const entry: LocalPlugin = { ...inDirs, entry: "./jira", inPluginDirs: false, dir: "/w/jira" };

Deno.test("removing a plugin a localPluginDirs folder overrides names the folder that stays", () => {
  assertEquals(planRemoval("jira", "/g", [official], [inDirs]), {
    target: official,
    entries: [],
    foldersKept: ["/dev-plugins/jira"],
  });
});

Deno.test("a localPlugins entry serving the plugin is removed with the package; none is kept", () => {
  assertEquals(planRemoval("jira", "/g", [official], [entry]), {
    target: official,
    entries: ["./jira"],
  });
});
