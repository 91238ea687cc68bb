import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { unusableFileError } from "../../core/files/bounded_read.ts";
import { cannotReadFix, readForCheck } from "./file_read.ts";

const FIXES = { mode: "600", remake: "hub start" };
const LINE = { id: "config", title: "config file" };

Deno.test("the fix fits the error: move a folder or a big file away, chmod a refused one", () => {
  const path = "/home/me/.hub/config.json";
  for (const kind of ["not_a_file", "too_large"] as const) {
    assertEquals(
      cannotReadFix(path, unusableFileError(path, kind, "x"), FIXES),
      `move it away (mv ${path} ${path}.old), then hub start`,
    );
  }
  assertMatch(
    cannotReadFix(path, new Deno.errors.PermissionDenied("denied"), FIXES),
    /^chmod 600 "\/home\/me\/\.hub\/config\.json" \(as the file's owner/,
  );
  assertMatch(cannotReadFix(path, new Error("I/O error"), FIXES), /^look at the file \("ls -l /);
});

Deno.test("readForCheck: read, missing, a folder and an oversized file", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "config.json");
    assertEquals((await readForCheck(path, LINE, FIXES)).kind, "missing");
    await Deno.writeTextFile(path, "{}");
    const read = await readForCheck(path, LINE, FIXES);
    assertEquals(read.kind === "read" && read.file.text, "{}");
    await Deno.writeTextFile(path, "x".repeat(100));
    const big = await readForCheck(path, LINE, FIXES, 50);
    if (big.kind !== "failed") throw new Error("an oversized file was read");
    assertEquals([big.check.id, big.check.status], ["config", "error"]);
    assertMatch(big.check.message, /is 100 bytes, over the limit of 50 bytes/);
    assertMatch(big.check.fix!, /^move it away/);
    const folder = await readForCheck(dir, LINE, FIXES);
    if (folder.kind !== "failed") throw new Error("a folder was read");
    assertMatch(folder.check.message, /is a folder, not a regular file/);
    assertEquals(folder.check.fix!.includes("chmod"), false);
  });
});
