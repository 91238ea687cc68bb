/**
 * `folder.open`: only a loaded local plugin's folder, never another path; the desktop's opener per
 * system; a missing opener, a failing one and a slow one (real child processes where it matters).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import { createFolderOpener, desktopOpener, type OpenerChild } from "./folder_open.ts";

async function withPluginDir(fn: (dir: string, root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "hub-folder-open-" });
  const dir = join(root, "my-plugin");
  await Deno.mkdir(dir);
  try {
    await fn(dir, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** The error `promise` fails with, checked to be a `type`. */
async function failure<E extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof type, `expected a ${type.name}, got ${error}`);
    return error;
  }
  throw new Error("it succeeded");
}

/** A spawn that records what it was asked to run and exits with `code` (or never). */
function fakeSpawn(code: number | "never") {
  const runs: { command: string; args: string[]; unref: boolean }[] = [];
  const spawn = (command: string, args: string[]): OpenerChild => {
    const run = { command, args, unref: false };
    runs.push(run);
    return {
      status: code === "never" ? new Promise(() => {}) : Promise.resolve({ code }),
      unref: () => (run.unref = true),
    };
  };
  return { spawn, runs };
}

Deno.test("each desktop has its opener", () => {
  assertEquals(desktopOpener("linux"), "xdg-open");
  assertEquals(desktopOpener("freebsd"), "xdg-open");
  assertEquals(desktopOpener("darwin"), "open");
  assertEquals(desktopOpener("windows"), "explorer");
});

Deno.test("a loaded local plugin's folder is opened with the desktop's opener", async () => {
  await withPluginDir(async (dir) => {
    const fake = fakeSpawn(0);
    const open = createFolderOpener({ localFolders: () => [dir], os: "darwin", spawn: fake.spawn });
    assertEquals(await open(`${dir}/`), { opened: dir }, "the same folder, written with a slash");
    assertEquals(fake.runs.map((r) => [r.command, r.args]), [["open", [dir]]]);
  });
});

Deno.test("any other path is refused before anything runs", async () => {
  await withPluginDir(async (dir, root) => {
    const fake = fakeSpawn(0);
    const open = createFolderOpener({ localFolders: () => [dir], spawn: fake.spawn });
    for (const path of [root, join(dir, "dist"), join(dir, ".."), "/", "my-plugin", "~"]) {
      const error = await failure(open(path), HubError);
      assertEquals([error.code, restStatus(error)], ["INVALID_ARGUMENTS", 400], path);
      assertMatch(error.message, /^Refusing to open /);
    }
    const long = `/${"x".repeat(5000)}`;
    const error = await failure(open(long), HubError);
    assert(error.message.length < 500, "the echoed path is cut");
    assertEquals(fake.runs, []);
  });
});

Deno.test("a folder that is gone is a clear error", async () => {
  await withPluginDir(async (dir) => {
    await Deno.remove(dir);
    const open = createFolderOpener({ localFolders: () => [dir], spawn: fakeSpawn(0).spawn });
    const error = await failure(open(dir), HubError);
    assertEquals(error.code, "OPEN_FAILED");
    assertMatch(error.message, /no longer exists/);
  });
});

Deno.test("without an opener: 'no desktop opener (…) found; the folder is <path>'", async () => {
  await withPluginDir(async (dir, root) => {
    const missing = join(root, "no-such-opener");
    const open = createFolderOpener({ localFolders: () => [dir], opener: missing });
    const error = await failure(open(dir), HubError);
    assertEquals(error.code, "NO_OPENER");
    assertEquals(error.message, `no desktop opener (${missing}) found; the folder is ${dir}`);
  });
});

Deno.test("an opener that fails is OPEN_FAILED with its exit code and the folder", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withPluginDir(async (dir, root) => {
    const script = join(root, "failing-opener");
    await Deno.writeTextFile(script, "#!/bin/sh\nexit 3\n");
    await Deno.chmod(script, 0o755);
    const open = createFolderOpener({ localFolders: () => [dir], opener: script, os: "linux" });
    const error = await failure(open(dir), HubError);
    assertEquals(error.code, "OPEN_FAILED");
    assertMatch(error.message, /exit code 3: no program to open folders/);
    assert(error.message.endsWith(`the folder is ${dir}`));
  });
});

Deno.test("a real opener that succeeds answers the folder", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withPluginDir(async (dir, root) => {
    const script = join(root, "opener");
    const seen = join(root, "seen");
    await Deno.writeTextFile(script, `#!/bin/sh\nprintf %s "$1" > "${seen}"\n`);
    await Deno.chmod(script, 0o755);
    const open = createFolderOpener({ localFolders: () => [dir], opener: script });
    assertEquals(await open(dir), { opened: dir });
    assertEquals(await Deno.readTextFile(seen), dir);
  });
});

Deno.test("an opener still running at the timeout is left alone and the request answers", async () => {
  await withPluginDir(async (dir) => {
    const fake = fakeSpawn("never");
    const open = createFolderOpener({
      localFolders: () => [dir],
      spawn: fake.spawn,
      timeoutMs: 20,
    });
    assertEquals(await open(dir), { opened: dir });
    assertEquals(fake.runs[0].unref, true);
  });
});

Deno.test("explorer's exit code 1 is success on Windows", async () => {
  await withPluginDir(async (dir) => {
    const fake = fakeSpawn(1);
    const open = createFolderOpener({
      localFolders: () => [dir],
      os: "windows",
      spawn: fake.spawn,
    });
    assertEquals(await open(dir), { opened: dir });
    assertEquals(fake.runs[0].command, "explorer");
  });
});
