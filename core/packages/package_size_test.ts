import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { checkPackageSize, type PackageLimits } from "./package_size.ts";
import { isPackageError } from "./package_error.ts";

const LIMITS: PackageLimits = {
  maxBytes: 1000,
  maxFiles: 10,
  perFile: { "dist/adapter.iife.js": 300 },
};

const tooLarge = (pattern: RegExp) => (error: unknown) =>
  isPackageError(error) && error.code === "PACKAGE_TOO_LARGE" &&
  pattern.test(error.message) && /Nothing was installed/.test(error.message);

async function writeFiles(dir: string, files: Record<string, number>): Promise<void> {
  for (const [path, size] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeFile(join(dir, path), new Uint8Array(size));
  }
}

Deno.test("checkPackageSize: totals of a package within its limits, nested folders included", async () => {
  await withTempDir(async (dir) => {
    await writeFiles(dir, {
      "package.json": 100,
      "dist/adapter.iife.js": 300,
      "node_modules/x/a": 50,
    });
    assertEquals(await checkPackageSize(dir, "p@1", LIMITS), { bytes: 450, files: 6 });
  });
});

Deno.test("checkPackageSize: a file, the total or the count past its limit is refused", async () => {
  await withTempDir(async (root) => {
    const adapter = join(root, "adapter");
    await writeFiles(adapter, { "dist/adapter.iife.js": 301 });
    await assertRejects(
      () => checkPackageSize(adapter, "p@1", LIMITS),
      tooLarge(
        /^p@1 is too large to install: dist\/adapter\.iife\.js is 301 bytes, over the limit of 300 bytes/,
      ),
    );
    const total = join(root, "total");
    await writeFiles(total, { "a": 600, "b/c": 600 });
    await assertRejects(
      () => checkPackageSize(total, "p@1", LIMITS),
      tooLarge(/unpacked it is over/),
    );
    const many = join(root, "many");
    await writeFiles(many, Object.fromEntries([...Array(11).keys()].map((i) => [`f${i}`, 1])));
    await assertRejects(
      () => checkPackageSize(many, "p@1", LIMITS),
      tooLarge(/more than 10 files/),
    );
  });
});

Deno.test("checkPackageSize: a link counts as itself, never as what it points at", async () => {
  await withTempDir(async (dir) => {
    await writeFiles(dir, { "package.json": 10 });
    await Deno.symlink("/dev/zero", join(dir, "zero"));
    const { bytes } = await checkPackageSize(dir, "p@1", LIMITS);
    assertEquals(bytes < 100, true);
  });
});
