import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { createFileSaver } from "./file_saver.ts";

Deno.test("files are saved in the folder (created), mode 0600, and the path is returned", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = join(root, "screenshots");
    const save = createFileSaver(dir);
    const path = await save("shot-1.png", new Uint8Array([1, 2, 3]));
    assertEquals(path, join(dir, "shot-1.png"));
    assertEquals([...await Deno.readFile(path)], [1, 2, 3]);
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(dir)).mode! & 0o777, 0o700);
    }
    await save("shot-1.png", new Uint8Array([4]));
    assertEquals([...await Deno.readFile(path)], [4], "an existing file is replaced");
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["shot-1.png"], "no temp files");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("names with folders or dots are refused", async () => {
  const root = await Deno.makeTempDir();
  try {
    const save = createFileSaver(join(root, "screenshots"));
    for (const name of ["../x.png", "a/b.png", ".hidden", "", "a..png", "x\\y.png"]) {
      await assertRejects(() => save(name, new Uint8Array()), /not a plain file name/);
    }
    assertEquals([...Deno.readDirSync(root)], [], "nothing was written");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
