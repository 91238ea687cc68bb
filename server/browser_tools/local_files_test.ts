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

/** Local files over `root` as the home folder and the one allowed folder; `listed` as listed. */
function filesOf(
  dirs: { root: string; config: string },
  clock = { now: 1_000_000 },
  more: { listed?: string[]; beforeOpen?: (real: string) => Promise<void> } = {},
) {
  return createLocalFiles({
    configDir: dirs.config,
    roots: () => [dirs.root, ...(more.listed ?? [])],
    listed: () => more.listed ?? [],
    home: dirs.root,
    clock: () => clock.now,
    beforeOpen: more.beforeOpen,
  });
}

const uploadCopy = (config: string, name: string) =>
  new RegExp(`^${config}/uploads/[0-9a-f-]{36}/${name.replace(".", "\\.")}$`);

async function codeOf(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await promise.then(() => undefined, (thrown) => thrown);
  assert(error instanceof HubError, `expected a HubError, got ${error}`);
  return [error.code, error.message];
}

Deno.test("readable: a regular file under a root answers a private copy (0600, named as the real file) and its size", async () => {
  await withFolders(async (dirs) => {
    const path = join(dirs.root, "a.txt");
    await Deno.writeTextFile(path, "hello");
    await Deno.symlink(path, join(dirs.root, "link.txt"));
    const files = filesOf(dirs);
    const copy = await files.readable(path, 100);
    assertMatch(copy.path, uploadCopy(dirs.config, "a.txt"));
    assertEquals(copy.bytes, 5);
    assertEquals(await Deno.readTextFile(copy.path), "hello");
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(copy.path)).mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(join(copy.path, ".."))).mode! & 0o777, 0o700);
    }
    // A link inside the root to a file inside it: a copy of the real file, under its name.
    const linked = await files.readable(join(dirs.root, "link.txt"), 100);
    assertMatch(linked.path, uploadCopy(dirs.config, "a.txt"));
    assert(linked.path !== copy.path, "each upload gets a copy of its own");
    assertEquals(await Deno.readTextFile(linked.path), "hello");
  });
});

Deno.test("readable: a link swapped in after the check is never what the browser reads", async () => {
  await withFolders(async (dirs) => {
    const decoy = join(dirs.root, "decoy.txt");
    await Deno.writeTextFile(decoy, "harmless");
    const secret = join(dirs.config, "auth.json");
    await Deno.writeTextFile(secret, '{"secret":"s3"}');
    // After the hub answered (before Chromium would read): the copy holds what was checked.
    const files = filesOf(dirs);
    const copy = await files.readable(decoy, 100);
    await Deno.remove(decoy);
    await Deno.symlink(secret, decoy);
    assertEquals(await Deno.readTextFile(copy.path), "harmless");
    // Between the check and the open: the opened file is not the checked one, so nothing is copied.
    await Deno.remove(decoy);
    await Deno.writeTextFile(decoy, "harmless");
    const swapping = filesOf(dirs, undefined, {
      beforeOpen: async (real) => {
        await Deno.remove(real);
        await Deno.symlink(secret, real);
      },
    });
    const [code, message] = await codeOf(swapping.readable(decoy, 100));
    assertEquals(code, "FILE_NOT_ALLOWED");
    assertMatch(message, /changed while the hub was checking it/);
    const copies: string[] = [];
    for await (const entry of Deno.readDir(join(dirs.config, "uploads"))) copies.push(entry.name);
    assertEquals(copies.length, 1, "only the first, harmless copy");
  });
});

Deno.test("readable refuses a file with several hard links, and one that grew past the bound since its check", async () => {
  await withFolders(async (dirs) => {
    const path = join(dirs.root, "a.txt");
    await Deno.writeTextFile(path, "hello");
    await Deno.link(path, join(dirs.root, "b.txt"));
    const [code, message] = await codeOf(filesOf(dirs).readable(path, 100));
    assertEquals(code, "FILE_NOT_ALLOWED");
    assertMatch(message, /2 hard links/);
    const grows = join(dirs.root, "grows.txt");
    await Deno.writeTextFile(grows, "12345");
    const growing = filesOf(dirs, undefined, {
      beforeOpen: (real) => Deno.writeTextFile(real, "0123456789abc"),
    });
    assertEquals((await codeOf(growing.readable(grows, 10)))[0], "FILE_TOO_LARGE");
    const left: string[] = [];
    const uploads = join(dirs.config, "uploads");
    if (await Deno.stat(uploads).then(() => true, () => false)) {
      for await (const entry of Deno.readDir(uploads)) left.push(entry.name);
    }
    assertEquals(left, [], "no copy is left");
  });
});

Deno.test("hidden folders of home and browser profiles are refused unless a folder inside them is listed", async () => {
  await withFolders(async (dirs) => {
    const put = async (parts: string[]) => {
      const path = join(dirs.root, ...parts);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, "k");
      return path;
    };
    const key = await put([".ssh", "id_ed25519"]);
    const cookies = await put([".config", "chromium", "Default", "Cookies"]);
    const deep = await put(["work", ".git", "config"]);
    const mac = await put(["Library", "Application Support", "Google", "Chrome", "Cookies"]);
    const win = await put(["AppData", "Local", "Microsoft", "Edge", "Login Data"]);
    const plain = await put(["docs", "cv.pdf"]);
    // A link from a plain folder into a hidden one: judged by where it leads.
    await Deno.symlink(key, join(dirs.root, "docs", "key.txt"));
    const files = filesOf(dirs);
    for (const path of [key, cookies, deep, join(dirs.root, "docs", "key.txt")]) {
      const [code, message] = await codeOf(files.readable(path, 100));
      assertEquals(code, "FILE_NOT_ALLOWED", path);
      assertMatch(message, /hidden folder of the home folder.*additionalAllowedDirectories/);
    }
    for (const path of [mac, win]) {
      const [code, message] = await codeOf(files.readable(path, 100));
      assertEquals(code, "FILE_NOT_ALLOWED", path);
      assertMatch(message, /browser's profile folder.*additionalAllowedDirectories/);
    }
    assertEquals((await files.readable(plain, 100)).bytes, 1);
    // Listing home itself does not open its hidden folders; listing one of them does.
    const home = filesOf(dirs, undefined, { listed: [dirs.root] });
    assertEquals((await codeOf(home.readable(key, 100)))[0], "FILE_NOT_ALLOWED");
    const ssh = filesOf(dirs, undefined, { listed: [join(dirs.root, ".ssh")] });
    assertEquals((await ssh.readable(key, 100)).bytes, 1);
    assertEquals((await codeOf(ssh.readable(cookies, 100)))[0], "FILE_NOT_ALLOWED");
    // save_pdf: the same folders are refused.
    const [code] = await codeOf(files.writable(join(dirs.root, ".config", "p.pdf"), ".pdf"));
    assertEquals(code, "FILE_NOT_ALLOWED");
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

Deno.test("writable: an absolute .pdf path in an existing allowed folder; write creates it, never replacing", async () => {
  await withFolders(async (dirs) => {
    const files = filesOf(dirs);
    const path = await files.writable(join(dirs.root, "Page.PDF"), ".pdf");
    assertEquals(path, join(dirs.root, "Page.PDF"));
    await files.write(path, new TextEncoder().encode("%PDF-1"));
    assertEquals(await Deno.readTextFile(path), "%PDF-1");
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    // A file there now: refused before printing, and at write time (one that appeared meanwhile).
    const [code, message] = await codeOf(files.writable(path, ".pdf"));
    assertEquals(code, "FILE_NOT_ALLOWED");
    assertMatch(message, /already exists.*pick a new name/);
    assertMatch(
      (await codeOf(files.write(path, new TextEncoder().encode("%PDF-2"))))[1],
      /pick a new name/,
    );
    assertEquals(await Deno.readTextFile(path), "%PDF-1");
    // No temp file is left beside it.
    const names: string[] = [];
    for await (const entry of Deno.readDir(dirs.root)) names.push(entry.name);
    assertEquals(names.sort(), [".hub", "Page.PDF"]);
  });
});

Deno.test("write checks the folder again: one swapped for a link during the print is not written through", async () => {
  await withFolders(async (dirs) => {
    const files = filesOf(dirs);
    const folder = join(dirs.root, "out");
    await Deno.mkdir(folder);
    const path = await files.writable(join(folder, "a.pdf"), ".pdf");
    // While the page prints, the folder becomes a link to another (here the config folder).
    await Deno.remove(folder);
    await Deno.symlink(dirs.config, folder);
    const [code, message] = await codeOf(files.write(path, new TextEncoder().encode("%PDF")));
    assertEquals(code, "FILE_NOT_ALLOWED");
    assertMatch(message, /replaced while the page was printed/);
    assertEquals(await Deno.stat(join(dirs.config, "a.pdf")).then(() => true, () => false), false);
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
