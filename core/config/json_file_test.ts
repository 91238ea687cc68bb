import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { readSmallFileIfExists, readTextIfExists, UnusableFileError } from "./json_file.ts";

Deno.test("readSmallFileIfExists: text and details, missing, a folder, too large", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "a.json");
    assertEquals(await readSmallFileIfExists(path, 10), undefined);
    await Deno.writeTextFile(path, "héllo");
    const small = await readSmallFileIfExists(path, 6);
    assertEquals(small?.text, "héllo");
    assertEquals([small?.info.isFile, small?.info.size], [true, 6]);
    const failure = (p: string, max: number) =>
      readSmallFileIfExists(p, max).then(() => undefined, (e: Error) => e);
    const tooLarge = await failure(path, 5);
    assert(tooLarge instanceof UnusableFileError && tooLarge.kind === "too_large", `${tooLarge}`);
    const folder = await failure(dir, 5);
    assert(folder instanceof UnusableFileError && folder.kind === "not_a_file", `${folder}`);
    assert(folder.message.startsWith(dir));
    await Deno.writeTextFile(path, "x".repeat(200_000));
    assertEquals((await readSmallFileIfExists(path, 200_000))?.text.length, 200_000);
    assertEquals(await readTextIfExists(join(dir, "none")), undefined);
  });
});
