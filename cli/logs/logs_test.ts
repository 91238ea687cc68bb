import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { linkToDevZero, makeFifo } from "../../tests/helpers/file_kinds.ts";
import { unusableFile } from "../../core/files/bounded_read.ts";
import { readLogTail } from "./logs.ts";

Deno.test("log tail: a small log whole, with the offset it ends at", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    await Deno.writeTextFile(path, "one\ntwo\n");
    assertEquals(await readLogTail(path), { text: "one\ntwo\n", end: 8 });
  });
});

Deno.test("log tail: a log over the bound gives its end, from the start of a line", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    await Deno.writeTextFile(path, "first line\nsecond\nthird\n");
    // The last 12 bytes are "cond\nthird\n" cut mid-line: the cut part is left out.
    assertEquals(await readLogTail(path, 12), { text: "third\n", end: 24 });
    // No newline in the part read: nothing whole to show.
    assertEquals(await readLogTail(path, 3), { text: "", end: 24 });
  });
});

Deno.test("log tail: a FIFO or a link to /dev/zero is refused at once, never read", async () => {
  await withTempDir(async (dir) => {
    const pipe = join(dir, "server.log");
    await makeFifo(pipe);
    await assertRejects(() => readLogTail(pipe), (e: Error) => !!unusableFile(e), "named pipe");
    const zero = join(dir, "plugins.log");
    await linkToDevZero(zero);
    await assertRejects(
      () => readLogTail(zero),
      (e: Error) => !!unusableFile(e),
      "character device",
    );
  });
});
