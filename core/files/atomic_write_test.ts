import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  createFileAtomic,
  removeOrphanTempFiles,
  tempFileName,
  writeFileAtomic,
} from "./atomic_write.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";

Deno.test("writeFileAtomic writes mode 0600 by default and leaves no temp file", async () => {
  await withTempDir(async (dir) => {
    await writeFileAtomic(`${dir}/auth.json`, "{}\n");
    assertEquals(await Deno.readTextFile(`${dir}/auth.json`), "{}\n");
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(`${dir}/auth.json`)).mode! & 0o777, 0o600);
    }
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["auth.json"]);
  });
});

Deno.test("createFileAtomic creates a missing file once and never replaces one", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    assertEquals(await createFileAtomic(path, "first\n"), true);
    assertEquals(await createFileAtomic(path, "second\n"), false);
    assertEquals(await Deno.readTextFile(path), "first\n");
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["config.json"]);
  });
});

Deno.test("createFileAtomic: of 20 concurrent creators exactly one wins, with its whole text", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    const texts = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(50_000)}\n`);
    const results = await Promise.all(
      texts.map((text, i) => createFileAtomic(path, text, { flush: i % 2 === 0 })),
    );
    assertEquals(results.filter((created) => created === true).length, 1);
    assertEquals(results.filter((created) => created === false).length, 19);
    assertEquals(await Deno.readTextFile(path), texts[results.indexOf(true)]);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["config.json"]);
  });
});

Deno.test("removeOrphanTempFiles removes only our temp files whose writer is dead", async () => {
  await withTempDir(async (dir) => {
    const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" })
      .spawn();
    await child.status;
    const dead = child.pid;
    const names = {
      deadConfig: tempFileName("config.json", dead, "abc123"),
      deadAuth: tempFileName("auth.json", dead, "zz9"),
      deadLock: tempFileName("config.json.lock", dead, "k2"),
      live: tempFileName("config.json", Deno.pid, "abc"),
      notOurs: ".config.json.tmp",
      alsoNotOurs: `config.json.${dead}.abc.tmp`,
    };
    for (const name of Object.values(names)) await Deno.writeTextFile(`${dir}/${name}`, "x");
    const removed = await removeOrphanTempFiles(dir);
    assertEquals(removed.sort(), [names.deadAuth, names.deadConfig, names.deadLock].sort());
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assertEquals(left, [names.live, names.notOurs, names.alsoNotOurs].sort());
  });
});

Deno.test("removeOrphanTempFiles on a missing folder does nothing", async () => {
  await withTempDir(async (dir) => {
    assertEquals(await removeOrphanTempFiles(`${dir}/missing`), []);
  });
});
