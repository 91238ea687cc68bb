import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { taskPermissionFlags, withTempDir } from "../../tests/helpers/hub_process.ts";
import { openFileLimit, readOpenFileLimit } from "./open_file_limit.ts";

Deno.test("openFileLimit reads the soft limit, unlimited, or falls back to 256", () => {
  const limits =
    "Limit  Soft  Hard  Units\nMax open files            1024                 4096                 files\n";
  assertEquals(openFileLimit(() => limits), 1024);
  assertEquals(
    openFileLimit(() => "Max open files  unlimited unlimited files"),
    Number.MAX_SAFE_INTEGER,
  );
  assertEquals(
    openFileLimit(() => {
      throw new Error("no /proc");
    }),
    256,
  );
});

Deno.test("readOpenFileLimit reads the limit once per process (here from /proc: the test has -A)", async () => {
  const first = readOpenFileLimit();
  assertEquals(readOpenFileLimit(), first, "one read");
  assertEquals(await first, openFileLimit());
});

Deno.test({
  name: "under the hub's scoped permissions the real open-file limit is read (not a fallback)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      const script = join(dir, "limit.ts");
      const limitModule = pathToFileURL(join(import.meta.dirname!, "open_file_limit.ts")).href;
      await Deno.writeTextFile(
        script,
        `import { readOpenFileLimit } from "${limitModule}";\nconsole.log(await readOpenFileLimit());\n`,
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
