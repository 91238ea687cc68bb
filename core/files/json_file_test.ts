import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { unusableFile } from "./bounded_read.ts";
import { readJsonFile } from "./json_file.ts";

Deno.test("readJsonFile: parsed within its bound; missing, too large, a folder, broken", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "a.json");
    await assertRejects(() => readJsonFile(path, 100), Error, `${path} does not exist`);
    await Deno.writeTextFile(path, '{"a": [1, 2]}');
    assertEquals(await readJsonFile(path, 100), { a: [1, 2] });
    await assertRejects(
      () => readJsonFile(path, 5),
      (e: Error) => !!unusableFile(e),
      "over the limit of 5 bytes",
    );
    await assertRejects(
      () => readJsonFile(dir, 100),
      (e: Error) => !!unusableFile(e),
      "is a folder",
    );
    await Deno.writeTextFile(path, "{ broken");
    await assertRejects(() => readJsonFile(path, 100), Error, `${path} is not valid JSON`);
  });
});
