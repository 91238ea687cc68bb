import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { makeFifo } from "../../tests/helpers/file_kinds.ts";
import { lastLogLines } from "./background.ts";

Deno.test("background start: the log's last lines, shown when the hub exits early", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    await Deno.writeTextFile(path, "a\nb\nc\nd\n");
    assertEquals(await lastLogLines(path, 2), "c\nd");
    assertEquals(await lastLogLines(join(dir, "missing.log"), 2), "(no log)");
  });
});

Deno.test("background start: a FIFO as the log is not waited on", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "server.log");
    await makeFifo(path);
    assertEquals(await lastLogLines(path, 5), "(no log)");
  });
});
