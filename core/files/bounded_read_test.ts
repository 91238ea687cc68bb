import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertThrows } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { linkToDevZero, makeFifo } from "../../tests/helpers/file_kinds.ts";
import {
  checkRegularFile,
  readBounded,
  readBoundedFile,
  readBoundedTail,
  readBoundedText,
  readBoundedTextIfExists,
  readBoundedTextSync,
  unusableFile,
} from "./bounded_read.ts";

const unusable = (kind: string, pattern: RegExp) => (error: unknown) =>
  unusableFile(error)?.kind === kind && pattern.test((error as Error).message);

Deno.test("bounded read: a regular file within the bound, whole, with its details", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "a.txt");
    await Deno.writeTextFile(path, "x".repeat(200_000));
    assertEquals((await readBounded(path, { maxBytes: 200_000 })).length, 200_000);
    assertEquals((await readBoundedText(path, { maxBytes: 200_000 })).length, 200_000);
    assertEquals(readBoundedTextSync(path, 200_000).length, 200_000);
    const { info } = await readBoundedFile(path, { maxBytes: 200_000 });
    assert(info.isFile);
    assertEquals(info.size, 200_000);
  });
});

Deno.test("bounded read: a file over the bound is refused, async and sync", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "big.txt");
    await Deno.writeTextFile(path, "x".repeat(2_000));
    const tooLarge = unusable(
      "too_large",
      /is 2 KB, over the limit of 1000 bytes; it was not read/,
    );
    await assertRejects(() => readBounded(path, { maxBytes: 1000 }), tooLarge);
    assertThrows(() => readBoundedTextSync(path, 1000), tooLarge);
  });
});

Deno.test("bounded read: a FIFO is refused without being opened (no writer, no block)", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "pipe");
    await makeFifo(path);
    const fifo = unusable("not_a_file", /is a named pipe \(FIFO\), not a regular file/);
    await assertRejects(() => readBoundedText(path, { maxBytes: 1000 }), fifo);
    assertThrows(() => readBoundedTextSync(path, 1000), fifo);
  });
});

Deno.test("bounded read: a link to /dev/zero and a folder are refused", async () => {
  await withTempDir(async (dir) => {
    const zero = join(dir, "zero");
    await linkToDevZero(zero);
    const device = unusable("not_a_file", /is a character device \(such as \/dev\/zero\)/);
    await assertRejects(() => readBounded(zero, { maxBytes: 1 << 20 }), device);
    assertThrows(() => readBoundedTextSync(zero, 1 << 20), device);
    const folder = unusable("not_a_file", /is a folder, not a regular file/);
    await assertRejects(() => readBounded(dir, { maxBytes: 10 }), folder);
  });
});

Deno.test("bounded read: missing is NotFound, or undefined with IfExists", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "missing");
    await assertRejects(() => readBounded(path, { maxBytes: 10 }), Deno.errors.NotFound);
    assertThrows(() => readBoundedTextSync(path, 10), Deno.errors.NotFound);
    assertEquals(await readBoundedTextIfExists(path, { maxBytes: 10 }), undefined);
  });
});

Deno.test("checkRegularFile: the size and kind from a look, before any open", () => {
  const info = (over: Partial<Deno.FileInfo>) =>
    ({ isFile: true, isDirectory: false, size: 5, ...over }) as Deno.FileInfo;
  checkRegularFile("/x", info({}), 5);
  assertThrows(
    () => checkRegularFile("/x", info({ size: 6 }), 5),
    unusable("too_large", /6 bytes/),
  );
  assertThrows(
    () => checkRegularFile("/x", info({ isFile: false, isSocket: true }), 5),
    unusable("not_a_file", /is a socket/),
  );
});

Deno.test("bounded tail: the last bytes of a file of any size, with where they start", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "log");
    await Deno.writeTextFile(path, "a".repeat(150_000) + "tail");
    const tail = await readBoundedTail(path, { maxBytes: 100_000 });
    assertEquals(tail.start, 50_004);
    assertEquals(tail.bytes.length, 100_000);
    assert(new TextDecoder().decode(tail.bytes).endsWith("atail"));
    const whole = await readBoundedTail(path, { maxBytes: 1 << 20 });
    assertEquals([whole.start, whole.bytes.length], [0, 150_004]);
  });
});

Deno.test("bounded tail: a FIFO and a link to /dev/zero are refused, never opened", async () => {
  await withTempDir(async (dir) => {
    const pipe = join(dir, "pipe");
    await makeFifo(pipe);
    await assertRejects(
      () => readBoundedTail(pipe, { maxBytes: 1000 }),
      unusable("not_a_file", /named pipe/),
    );
    const zero = join(dir, "zero");
    await linkToDevZero(zero);
    await assertRejects(
      () => readBoundedTail(zero, { maxBytes: 1000 }),
      unusable("not_a_file", /character device/),
    );
  });
});
