import { assertEquals } from "../../tests/helpers/assert.ts";
import { HUB_PERMISSION_FLAGS, PLUGIN_CLI_PERMISSION_FLAGS } from "./deno_permissions.ts";
import { taskPermissionFlags } from "../../tests/helpers/hub_process.ts";
import { flagMismatches, permissionFlagsOf, readmeMismatches } from "../../npm/permission_flags.ts";
import { desktopOpener } from "../../server/extension/folder_open.ts";
import { TELEMETRY_ENDPOINT } from "../../core/telemetry/endpoint.ts";

Deno.test("deno.json tasks run hub with exactly HUB_PERMISSION_FLAGS", () => {
  const denoJson = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
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

Deno.test("the permission set is scoped: loopback and telemetry net only, no blanket run or env", () => {
  assertEquals(HUB_PERMISSION_FLAGS.includes("--allow-all"), false);
  assertEquals(
    HUB_PERMISSION_FLAGS.includes("--allow-net=127.0.0.1,localhost,[::1],telemetry.tabhub.dev"),
    true,
  );
  assertEquals(HUB_PERMISSION_FLAGS.some((f) => f === "--allow-run" || f === "--allow-env"), false);
});

Deno.test("deno.json tasks run hub-plugin with exactly PLUGIN_CLI_PERMISSION_FLAGS", () => {
  const denoJson = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  for (const task of ["hub-plugin", "compile:hub-plugin"]) {
    const command: string = denoJson.tasks[task];
    const flags = PLUGIN_CLI_PERMISSION_FLAGS.join(" ");
    assertEquals(command.includes(` ${flags} `), true, `task ${task}: ${command}`);
  }
});

Deno.test("every task that runs hub or hub-plugin has exactly their flags, nothing more", () => {
  const denoJson = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  assertEquals(flagMismatches(denoJson.tasks), []);
  const start = denoJson.tasks.start.replace(" main.ts", " --allow-sys main.ts");
  assertEquals(permissionFlagsOf(start).at(-1), "--allow-sys");
  const lines = flagMismatches({ ...denoJson.tasks, start });
  assertEquals(lines, [
    'deno.json task "start": has "--allow-sys" where cli/server/deno_permissions.ts has "(nothing)"',
  ]);
});

Deno.test("hub may run the folder opener of every desktop, and no other program", () => {
  const run = HUB_PERMISSION_FLAGS.find((f) => f.startsWith("--allow-run="))!.split(/[=,]/).slice(
    1,
  );
  const openers = (["linux", "darwin", "windows"] as const).map((os) => desktopOpener(os));
  assertEquals(run, ["npm", "deno", "kill", "ps", ...openers]);
});

Deno.test("the npm wrapper's launchers may read the variables they set", () => {
  for (const name of ["HUB_INSTALL", "HUB_NPM_PACKAGE_DIR", "HUB_NPM_ROOT"]) {
    assertEquals(
      HUB_PERMISSION_FLAGS.some((f) =>
        f.startsWith("--allow-env=") && f.split(/[=,]/).includes(name)
      ),
      true,
      name,
    );
  }
});

Deno.test("the README's deno install commands use exactly these flags", () => {
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  assertEquals(readmeMismatches(readme), []);
});

Deno.test("the one host hub may reach beyond loopback is the telemetry endpoint's", () => {
  const net = HUB_PERMISSION_FLAGS.find((f) => f.startsWith("--allow-net="))!.split(/[=,]/).slice(
    1,
  );
  const loopback = ["127.0.0.1", "localhost", "[::1]"];
  assertEquals(net.filter((host) => !loopback.includes(host)), [new URL(TELEMETRY_ENDPOINT).host]);
  assertEquals(
    HUB_PERMISSION_FLAGS.some((f) =>
      f.startsWith("--allow-env=") && f.includes("HUB_TELEMETRY_ENDPOINT")
    ),
    true,
  );
});
