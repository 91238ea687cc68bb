import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { HubError } from "../../protocol/errors.ts";
import { createLocalFiles, UPLOAD_KEEP_MS } from "./local_files.ts";

/**
 * A temp folder holding `root/` (the one allowed folder), `elsewhere/` (outside it) and `config/`
 * (the hub's config folder, inside the root as ~/.hub is inside home); removed afterwards.
 */
async function withFolders(
  fn: (
    dirs: { root: string; elsewhere: string; config: string },
    clock: { now: number },
  ) => Promise<
    void
  >,
) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-files-" }));
  const dirs = {
    root: join(base, "root"),
    elsewhere: join(base, "elsewhere"),
    config: join(base, "root", ".hub"),
  };
  for (const dir of Object.values(dirs)) await Deno.mkdir(dir, { recursive: true });
  try {
    await fn(dirs, { now: 1_000_000 });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function filesOf(dirs: { root: string; config: string }, clock = { now: 1_000_000 }) {
  return createLocalFiles({
    configDir: dirs.config,
    roots: () => [dirs.root],
    clock: () => clock.now,
  });
}

async function codeOf(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await promise.then(() => undefined, (thrown) => thrown);
  assert(error instanceof HubError, `expected a HubError, got ${error}`);
  return [error.code, error.message];
}

Deno.test("readable: a regular file under a root answers its real path and size", async () => {
  await withFolders(async (dirs) => {
    const path = join(dirs.root, "a.txt");
    await Deno.writeTextFile(path, "hello");
    await Deno.symlink(path, join(dirs.root, "link.txt"));
    const files = filesOf(dirs);
    assertEquals(await files.readable(path, 100), { path, bytes: 5 });
    // A link inside the root to a file inside it: the real path.
    assertEquals(await files.readable(join(dirs.root, "link.txt"), 100), { path, bytes: 5 });
  });
});

Deno.test("readable refuses relative, missing, outside, escaping links, folders and the config folder", async () => {
  await withFolders(async (dirs) => {
    const outside = join(dirs.elsewhere, "secret.txt");
    await Deno.writeTextFile(outside, "x");
    await Deno.symlink(outside, join(dirs.root, "escape.txt"));
    await Deno.writeTextFile(join(dirs.config, "auth.json"), "{}");
    const files = filesOf(dirs);
    const [code, message] = await codeOf(files.readable("a.txt", 100));
    assertEquals(code, "FILE_NOT_ALLOWED");
    assertMatch(message, /not absolute/);
    assertMatch((await codeOf(files.readable(join(dirs.root, "nope"), 100)))[1], /no file/);
    const out = await codeOf(files.readable(outside, 100));
    assertEquals(out[0], "FILE_NOT_ALLOWED");
    assertMatch(out[1], /outside the folders.*additionalAllowedDirectories/);
    assertMatch((await codeOf(files.readable(join(dirs.root, "escape.txt"), 100)))[1], /outside/);
    assertMatch((await codeOf(files.readable(dirs.root, 100)))[1], /not a regular file/);
    const config = await codeOf(files.readable(join(dirs.config, "auth.json"), 100));
    assertEquals(config[0], "FILE_NOT_ALLOWED");
    assertMatch(config[1], /hub's own config folder/);
  });
});

Deno.test("readable: a file over the limit is FILE_TOO_LARGE", async () => {
  await withFolders(async (dirs) => {
    const path = join(dirs.root, "big.bin");
    await Deno.writeFile(path, new Uint8Array(11));
    const [code, message] = await codeOf(filesOf(dirs).readable(path, 10));
    assertEquals(code, "FILE_TOO_LARGE");
    assertMatch(message, /11 bytes, over the limit of 10 bytes/);
  });
});

Deno.test("temporary writes 0600 in its own 0700 folder under uploads/, which readable allows", async () => {
  await withFolders(async (dirs) => {
    const files = filesOf(dirs);
    const path = await files.temporary("report.csv", new TextEncoder().encode("a,b"));
    assertMatch(path, /\/\.hub\/uploads\/[0-9a-f-]{36}\/report\.csv$/);
    assertEquals(await Deno.readTextFile(path), "a,b");
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(join(path, ".."))).mode! & 0o777, 0o700);
      assertEquals((await Deno.stat(join(dirs.config, "uploads"))).mode! & 0o777, 0o700);
    }
    // The same name twice: two files, each in its own folder.
    const again = await files.temporary("report.csv", new Uint8Array([1]));
    assert(again !== path);
    assertEquals((await files.readable(path, 100)).bytes, 3);
    await assertRejects(() => files.temporary("../x", new Uint8Array()), HubError);
  });
});

Deno.test("temporary removes upload folders older than the keep time", async () => {
  await withFolders(async (dirs) => {
    const clock = { now: Date.now() };
    const files = filesOf(dirs, clock);
    const first = await files.temporary("one.txt", new Uint8Array([1]));
    clock.now += UPLOAD_KEEP_MS + 60_000;
    const second = await files.temporary("two.txt", new Uint8Array([2]));
    assertEquals(await Deno.stat(first).then(() => true, () => false), false);
    assertEquals(await Deno.stat(second).then(() => true, () => false), true);
  });
});

Deno.test("writable: an absolute .pdf path in an existing allowed folder; write replaces atomically", async () => {
  await withFolders(async (dirs) => {
    const files = filesOf(dirs);
    const path = await files.writable(join(dirs.root, "Page.PDF"), ".pdf");
    assertEquals(path, join(dirs.root, "Page.PDF"));
    await files.write(path, new TextEncoder().encode("%PDF-1"));
    await files.write(path, new TextEncoder().encode("%PDF-2"));
    assertEquals(await Deno.readTextFile(path), "%PDF-2");
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("writable refuses other names, missing folders, outside folders, the config folder and folders", async () => {
  await withFolders(async (dirs) => {
    const files = filesOf(dirs);
    await Deno.mkdir(join(dirs.root, "dir.pdf"));
    const cases: [string, RegExp][] = [
      ["page.pdf", /not absolute/],
      [join(dirs.root, ".bashrc"), /ending in \.pdf/],
      [join(dirs.root, "missing", "a.pdf"), /does not exist/],
      [join(dirs.elsewhere, "a.pdf"), /outside the folders/],
      [join(dirs.config, "a.pdf"), /hub's own config folder/],
      [join(dirs.root, "dir.pdf"), /not a regular file/],
    ];
    for (const [path, expected] of cases) {
      const [code, message] = await codeOf(files.writable(path, ".pdf"));
      assertEquals(code, "FILE_NOT_ALLOWED", path);
      assertMatch(message, expected);
    }
  });
});

Deno.test("a new LocalFiles removes what an earlier run left past the keep time", async () => {
  await withFolders(async (dirs) => {
    const left = join(dirs.config, "uploads", "old");
    await Deno.mkdir(left, { recursive: true });
    await Deno.writeTextFile(join(left, "a.txt"), "a");
    const clock = { now: Date.now() + UPLOAD_KEEP_MS + 60_000 };
    filesOf(dirs, clock);
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      gone = !(await Deno.stat(left).then(() => true, () => false));
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert(gone, "the old upload folder is still there");
  });
});
