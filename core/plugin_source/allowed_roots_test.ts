import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { allowedRoots, fileRoots, isInside, outsideRootsError } from "./allowed_roots.ts";

/** Runs `fn` with two fresh real temp dirs (one as the root, one outside it), then removes them. */
async function withDirs(
  fn: (root: string, elsewhere: string) => Promise<void> | void,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-root-" }));
  const elsewhere = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-elsewhere-" }));
  try {
    await fn(root, elsewhere);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
}

// --- isInside ---

Deno.test("isInside is true for the root itself and paths below it", () => {
  assert(isInside("/home/u", "/home/u"));
  assert(isInside("/home/u/code/plugin", "/home/u"));
});

Deno.test("isInside is false for a parent and for a sibling sharing a name prefix", () => {
  assert(!isInside("/home", "/home/u"));
  assert(!isInside("/home/u2/plugin", "/home/u"));
  assert(!isInside("/etc/passwd", "/home/u"));
});

Deno.test("isInside is false for a path that climbs out with ..", () => {
  assert(!isInside("/home/u/../other/plugin", "/home/u"));
});

// Documents a finding: a child folder whose name begins with ".." counts as outside.
Deno.test("isInside is true for a child folder whose name starts with two dots", () => {
  assert(isInside("/home/u/..plugins/mine", "/home/u"));
});

// --- outsideRootsError ---

Deno.test("outsideRootsError accepts a folder under a root", async () => {
  await withDirs(async (root) => {
    const dir = join(root, "plugin");
    await Deno.mkdir(dir);
    assertEquals(outsideRootsError(dir, [root]), undefined);
  });
});

Deno.test("outsideRootsError accepts a path that does not exist yet under a root", async () => {
  await withDirs((root) => {
    assertEquals(outsideRootsError(join(root, "not-yet"), [root]), undefined);
  });
});

Deno.test("outsideRootsError refuses a folder outside every root and says how to fix it", async () => {
  await withDirs((root, elsewhere) => {
    const message = outsideRootsError(elsewhere, [root]);
    assert(message !== undefined);
    assert(message.startsWith(`${elsewhere} is outside the folders hub loads local plugins from`));
    assert(message.includes(`(${root})`));
    assertMatch(message, /add its parent folder to "additionalAllowedDirectories"/);
  });
});

Deno.test("outsideRootsError refuses a symlink inside a root that points outside", async () => {
  await withDirs(async (root, elsewhere) => {
    const link = join(root, "sneaky");
    await Deno.symlink(elsewhere, link);
    const message = outsideRootsError(link, [root]);
    assert(message !== undefined);
    assert(message.startsWith(`${link} is outside`));
  });
});

Deno.test("outsideRootsError accepts a symlink inside a root that points inside it", async () => {
  await withDirs(async (root) => {
    const target = join(root, "real");
    await Deno.mkdir(target);
    await Deno.symlink(target, join(root, "alias"));
    assertEquals(outsideRootsError(join(root, "alias"), [root]), undefined);
  });
});

Deno.test("outsideRootsError accepts a folder under any one of several roots", async () => {
  await withDirs((root, elsewhere) => {
    assertEquals(outsideRootsError(elsewhere, [root, elsewhere]), undefined);
  });
});

// --- allowedRoots ---

Deno.test("allowedRoots adds extra directories resolved from the config dir", async () => {
  await withDirs(async (root, elsewhere) => {
    const extra = join(root, "extra");
    await Deno.mkdir(extra);
    const roots = allowedRoots({
      additionalAllowedDirectories: ["./extra", elsewhere],
      configDir: root,
      cwd: root,
    });
    assert(roots.includes(extra));
    assert(roots.includes(elsewhere));
  });
});

Deno.test("allowedRoots includes the home directory and the working directory, without duplicates", async () => {
  await withDirs(async (root) => {
    const roots = allowedRoots({
      additionalAllowedDirectories: [root],
      configDir: root,
      cwd: root,
    });
    assert(roots.includes(await Deno.realPath(Deno.env.get("HOME")!)));
    assertEquals(roots.filter((r) => r === root).length, 1);
  });
});

// --- fileRoots ---

Deno.test("fileRoots: home, temp and the extra directories, never the working directory", async () => {
  await withDirs(async (root, elsewhere) => {
    const extra = join(root, "extra");
    await Deno.mkdir(extra);
    const roots = fileRoots({ additionalAllowedDirectories: ["./extra"], configDir: root });
    assert(roots.includes(extra));
    assert(roots.includes(await Deno.realPath(Deno.env.get("HOME")!)));
    assert(!roots.includes(elsewhere));
    const cwd = await Deno.realPath(Deno.cwd());
    const underOthers = roots.some((r) => r !== cwd && isInside(cwd, r));
    assert(underOthers || !roots.includes(cwd), "the working directory is no root of its own");
  });
});
