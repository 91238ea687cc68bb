import { join } from "node:path";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { makeFifo } from "../../tests/helpers/file_kinds.ts";
import { replaceNonFile } from "./log_path.ts";

const unix = Deno.build.os !== "windows";

Deno.test({
  name: "log path: a FIFO is removed, never opened (opening it would block)",
  ignore: !unix,
  fn: async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, "server.log");
      await makeFifo(path);
      replaceNonFile(path);
      await Deno.lstat(path).then(() => assert(false, "still there"), () => {});
    });
  },
});

Deno.test("log path: a plain file and a missing path are left as they are", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    replaceNonFile(path);
    await Deno.writeTextFile(path, "kept\n");
    replaceNonFile(path);
    assertEquals(await Deno.readTextFile(path), "kept\n");
  });
});

Deno.test({
  name: "log path: a link is removed, its target left alone",
  ignore: !unix,
  fn: async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, "server.log");
      const other = join(dir, "other.txt");
      await Deno.writeTextFile(other, "keep\n");
      await Deno.symlink(other, path);
      replaceNonFile(path);
      await Deno.lstat(path).then(() => assert(false, "still there"), () => {});
      assertEquals(await Deno.readTextFile(other), "keep\n");
    });
  },
});

Deno.test("log path: a folder with files in it is refused with a clear, bounded error", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    await Deno.mkdir(path);
    await Deno.writeTextFile(join(path, "x"), "x");
    assertThrows(
      () => replaceNonFile(path),
      (error: Error) =>
        /is a folder, not a regular file/.test(error.message) &&
        /move it away \(mv /.test(error.message) && error.message.length <= 600,
    );
  });
});
