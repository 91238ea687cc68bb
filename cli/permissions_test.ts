import { assertEquals } from "../tests/helpers/assert.ts";
import { HUB_PERMISSION_FLAGS, PLUGIN_CLI_PERMISSION_FLAGS } from "./permissions.ts";
import { taskPermissionFlags } from "../tests/helpers/hub_process.ts";

Deno.test("deno.json tasks run hub with exactly HUB_PERMISSION_FLAGS", () => {
  const denoJson = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  assertEquals(taskPermissionFlags(), [...HUB_PERMISSION_FLAGS]);
  for (const task of ["hub", "start", "compile:hub"]) {
    const command: string = denoJson.tasks[task];
    assertEquals(
      command.includes(HUB_PERMISSION_FLAGS.join(" ")),
      true,
      `task ${task}: ${command}`,
    );
  }
});

Deno.test("the permission set is scoped: loopback net only, no blanket run or env", () => {
  assertEquals(HUB_PERMISSION_FLAGS.includes("--allow-all"), false);
  assertEquals(HUB_PERMISSION_FLAGS.includes("--allow-net=127.0.0.1,localhost,[::1]"), true);
  assertEquals(HUB_PERMISSION_FLAGS.some((f) => f === "--allow-run" || f === "--allow-env"), false);
});

Deno.test("deno.json tasks run hub-plugin with exactly PLUGIN_CLI_PERMISSION_FLAGS", () => {
  const denoJson = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  for (const task of ["hub-plugin", "compile:hub-plugin"]) {
    const command: string = denoJson.tasks[task];
    const flags = PLUGIN_CLI_PERMISSION_FLAGS.join(" ");
    assertEquals(command.includes(` ${flags} `), true, `task ${task}: ${command}`);
  }
});
