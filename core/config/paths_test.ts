import { assertEquals } from "../../tests/helpers/assert.ts";
import { configDirFromEnv, expandHome, hubPaths, resolvePluginPath } from "./paths.ts";

Deno.test("local plugin paths: ./ and ../ from the config dir, ~/ from home, absolute as is", () => {
  const home = Deno.env.get("HOME")!;
  assertEquals(resolvePluginPath("./mine", "/cfg/.hub"), "/cfg/.hub/mine");
  assertEquals(resolvePluginPath("../plugins/x", "/cfg/.hub"), "/cfg/plugins/x");
  assertEquals(resolvePluginPath("~/code/p", "/cfg/.hub"), `${home}/code/p`);
  assertEquals(resolvePluginPath("/abs/p/", "/cfg/.hub"), "/abs/p");
  assertEquals(expandHome("~"), home);
});

Deno.test("HUB_CONFIG_DIR overrides ~/.hub and every file lives under it", () => {
  const before = Deno.env.get("HUB_CONFIG_DIR");
  try {
    Deno.env.set("HUB_CONFIG_DIR", "/tmp/some-hub");
    const paths = hubPaths(configDirFromEnv());
    assertEquals(paths.config, "/tmp/some-hub/config.json");
    assertEquals(paths.auth, "/tmp/some-hub/extension/auth.json");
    assertEquals([paths.serverLog, paths.pidFile], [
      "/tmp/some-hub/server.log",
      "/tmp/some-hub/server.pid",
    ]);
    Deno.env.delete("HUB_CONFIG_DIR");
    assertEquals(configDirFromEnv(), `${Deno.env.get("HOME")}/.hub`);
  } finally {
    if (before === undefined) Deno.env.delete("HUB_CONFIG_DIR");
    else Deno.env.set("HUB_CONFIG_DIR", before);
  }
});
