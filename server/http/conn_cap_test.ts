import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { taskPermissionFlags, withTempDir } from "../../tests/helpers/hub_process.ts";

Deno.test({
  name: "under the hub's scoped permissions the real open-file limit is read (not a fallback)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      const script = join(dir, "limit.ts");
      const capModule = pathToFileURL(join(import.meta.dirname!, "conn_cap.ts")).href;
      await Deno.writeTextFile(
        script,
        `import { openFileLimit } from "${capModule}";\nconsole.log(openFileLimit());\n`,
      );
      const flags = taskPermissionFlags().map((f) => `'${f}'`).join(" ");
      const out = await new Deno.Command("bash", {
        args: ["-c", `ulimit -n 300 && exec '${Deno.execPath()}' run --quiet ${flags} '${script}'`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(new TextDecoder().decode(out.stderr), "");
      assertEquals(new TextDecoder().decode(out.stdout).trim(), "300");
    });
  },
});
