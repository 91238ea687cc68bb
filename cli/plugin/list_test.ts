import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { linkToDevZero, makeFifo } from "../../tests/helpers/file_kinds.ts";
import { urlPatternsOf } from "./list.ts";

Deno.test("plugin list: a plugin's URL patterns come from its package.json", async () => {
  await withTempDir(async (dir) => {
    const pkg = { name: "hub-plugin-a", hub: { urlPatterns: ["https://a.example/*", 3] } };
    await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg));
    const notes: string[] = [];
    assertEquals(await urlPatternsOf(dir, (n) => notes.push(n)), ["https://a.example/*"]);
    assertEquals(notes, []);
  });
});

Deno.test("plugin list: a FIFO as package.json gives a short note, never a hang", async () => {
  await withTempDir(async (dir) => {
    await makeFifo(join(dir, "package.json"));
    const notes: string[] = [];
    assertEquals(await urlPatternsOf(dir, (n) => notes.push(n)), undefined);
    assertEquals(notes.length, 1);
    assert(/named pipe \(FIFO\), not a regular file/.test(notes[0]), notes[0]);
    assert(notes[0].length <= 300);
  });
});

Deno.test("plugin list: a package.json linked to /dev/zero is refused, not read", async () => {
  await withTempDir(async (dir) => {
    await linkToDevZero(join(dir, "package.json"));
    const notes: string[] = [];
    assertEquals(await urlPatternsOf(dir, (n) => notes.push(n)), undefined);
    assertEquals(notes.length, 1);
    assert(/character device/.test(notes[0]), notes[0]);
  });
});

Deno.test("plugin list: a broken package.json gives a note naming the file", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "package.json"), "{ nope");
    const notes: string[] = [];
    assertEquals(await urlPatternsOf(dir, (n) => notes.push(n)), undefined);
    assert(/package\.json is not valid JSON/.test(notes[0]), notes[0]);
  });
});
