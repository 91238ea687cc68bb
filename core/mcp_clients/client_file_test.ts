import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { isUserError } from "../cli/user_error.ts";
import { BACKUP_SUFFIX, clientFileIO } from "./client_file.ts";
import { SetupError } from "./setup_error.ts";

const posix = Deno.build.os !== "windows";
const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("not refused");
}

Deno.test("a new file is the user's alone, in new folders that are too, with no backup", async () => {
  await withTempDir(async (home) => {
    const io = clientFileIO({ home });
    const path = `${home}/.cursor/mcp.json`;
    assertEquals(await io.read(path), undefined);
    assertEquals(await io.write(path, "{}\n", undefined, ""), {});
    assertEquals(await Deno.readTextFile(path), "{}\n");
    if (posix) {
      assertEquals(await modeOf(path), 0o600);
      assertEquals(await modeOf(`${home}/.cursor`), 0o700);
    }
    assertEquals([...Deno.readDirSync(`${home}/.cursor`)].map((e) => e.name), ["mcp.json"]);
    assertEquals(await io.permissionsWarning(path), undefined);
  });
});

Deno.test("with private off an existing file keeps its mode; its first version is backed up once", async () => {
  await withTempDir(async (home) => {
    const io = clientFileIO({ home });
    const path = `${home}/settings.json`;
    await Deno.writeTextFile(path, "first\n", { mode: 0o600 });
    if (posix) await Deno.chmod(path, 0o640);
    const read = await io.read(path);
    assertEquals(read?.text, "first\n");
    if (posix) assertEquals(read?.mode, 0o640);
    const shared = { private: false };
    assertEquals(await io.write(path, "second\n", undefined, "first\n", shared), {
      backup: path + BACKUP_SUFFIX,
    });
    assertEquals(await io.write(path, "third\n", undefined, undefined, shared), {});
    assertEquals(await Deno.readTextFile(path), "third\n");
    assertEquals(await Deno.readTextFile(path + BACKUP_SUFFIX), "first\n");
    if (posix) {
      assertEquals(await modeOf(path), 0o640);
      assertEquals(await modeOf(path + BACKUP_SUFFIX), 0o600);
      assertMatch((await io.permissionsWarning(path))!, /read by your group \(mode 0640\)/);
      await Deno.chmod(path, 0o644);
      assertMatch(
        (await io.permissionsWarning(path))!,
        /read by every user \(mode 0644\).*chmod 600/,
      );
    }
  });
});

Deno.test("a file changed since it was read is not written over", async () => {
  await withTempDir(async (home) => {
    const io = clientFileIO({ home });
    const path = `${home}/.claude.json`;
    await Deno.writeTextFile(path, '{"numStartups": 2}');
    const error = await rejection(io.write(path, "{}", undefined, '{"numStartups": 1}'));
    assert(error instanceof SetupError);
    assertMatch(error.message, /changed while hub was editing it/);
    assertEquals(await Deno.readTextFile(path), '{"numStartups": 2}');
    assert(
      await rejection(io.write(`${home}/new.json`, "{}", undefined, "{}")) instanceof SetupError,
    );
  });
});

Deno.test({
  name: "a read-only file is refused and left as it was, without a backup",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (home) => {
      const io = clientFileIO({ home });
      const path = `${home}/mcp.json`;
      await Deno.writeTextFile(path, "{}");
      await Deno.chmod(path, 0o444);
      const error = await rejection(io.write(path, '{"a": 1}'));
      assert(error instanceof SetupError);
      assertMatch(error.message, /read-only \(mode 0444\)/);
      assertEquals(await Deno.readTextFile(path), "{}");
      assertEquals(await modeOf(path), 0o444);
      assertEquals([...Deno.readDirSync(home)].map((e) => e.name), ["mcp.json"]);
    });
  },
});

Deno.test({
  name: "a link out of the home folder is refused unless links are to be followed",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (outside) => {
      await withTempDir(async (home) => {
        const target = `${outside}/real.json`;
        await Deno.writeTextFile(target, "{}");
        await Deno.symlink(target, `${home}/.claude.json`);
        await Deno.symlink(outside, `${home}/.cursor`);
        const io = clientFileIO({ home });
        for (const path of [`${home}/.claude.json`, `${home}/.cursor/mcp.json`]) {
          const read = await rejection(io.read(path));
          assert(read instanceof SetupError, String(read));
          assertMatch(read.message, /--follow-symlinks/);
          assert(await rejection(io.write(path, '{"x": 1}')) instanceof SetupError);
        }
        assertEquals(await Deno.readTextFile(target), "{}");
        assertEquals([...Deno.readDirSync(outside)].map((e) => e.name), ["real.json"]);

        const follow = clientFileIO({ home, followSymlinks: true });
        assertEquals((await follow.read(`${home}/.claude.json`))?.text, "{}");
        await follow.write(`${home}/.claude.json`, '{"x": 1}');
        assertEquals(await Deno.readTextFile(target), '{"x": 1}');
        assert((await Deno.lstat(`${home}/.claude.json`)).isSymlink, "the link stays a link");
      });
    });
  },
});

Deno.test({
  name:
    "a link inside the home folder, or inside the project folder from a project file, is followed; others not",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (home) => {
      await Deno.mkdir(`${home}/dotfiles`);
      await Deno.writeTextFile(`${home}/dotfiles/claude.json`, "{}");
      await Deno.symlink(`${home}/dotfiles/claude.json`, `${home}/.claude.json`);
      await withTempDir(async (project) => {
        await Deno.writeTextFile(`${project}/shared.json`, "[]");
        await Deno.symlink(`${project}/shared.json`, `${project}/.mcp.json`);
        await Deno.symlink(`${home}/dotfiles/claude.json`, `${project}/linked.json`);
        const io = clientFileIO({ home, roots: [project] });
        await io.write(`${home}/.claude.json`, '{"a": 1}');
        assertEquals(await Deno.readTextFile(`${home}/dotfiles/claude.json`), '{"a": 1}');
        assert((await Deno.lstat(`${home}/.claude.json`)).isSymlink);
        assertEquals((await io.read(`${project}/.mcp.json`))?.text, "[]");
        const intoHome = await rejection(io.read(`${project}/linked.json`));
        assertMatch(intoHome.message, /outside .*--follow-symlinks/);
        await withTempDir(async (outside) => {
          await Deno.writeTextFile(`${outside}/x.json`, "{}");
          await Deno.symlink(`${outside}/x.json`, `${project}/out.json`);
          assert(await rejection(io.read(`${project}/out.json`)) instanceof SetupError);
        });
      });
    });
  },
});

Deno.test("files too large, not regular or not UTF-8 are refused, and so is too large a result", async () => {
  await withTempDir(async (home) => {
    const io = clientFileIO({ home, maxBytes: 100 });
    await Deno.writeTextFile(`${home}/big.json`, " ".repeat(101));
    const big = await rejection(io.read(`${home}/big.json`));
    assert(isUserError(big), String(big));
    assertMatch(big.message, /over the limit/);
    await Deno.mkdir(`${home}/folder.json`);
    assert(isUserError(await rejection(io.read(`${home}/folder.json`))));
    await Deno.writeFile(`${home}/bin.json`, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    assertMatch((await rejection(io.read(`${home}/bin.json`))).message, /not UTF-8/);
    const over = await rejection(io.write(`${home}/new.json`, "x".repeat(101)));
    assert(over instanceof SetupError);
    assertEquals(await io.read(`${home}/new.json`), undefined);
  });
});

Deno.test("a BOM is read as part of the text, so that it is written back", async () => {
  await withTempDir(async (home) => {
    const io = clientFileIO({ home });
    await Deno.writeTextFile(`${home}/a.json`, "\uFEFF{}");
    assertEquals((await io.read(`${home}/a.json`))?.text, "\uFEFF{}");
  });
});

Deno.test("a path through a file where a folder should be is refused as a setup error", async () => {
  await withTempDir(async (home) => {
    await Deno.writeTextFile(`${home}/.codex`, "a file");
    const io = clientFileIO({ home });
    const runs = [
      () => io.read(`${home}/.codex/config.toml`),
      () => io.write(`${home}/.codex/c`, ""),
    ];
    for (const run of runs) {
      const error = await rejection(run());
      assert(error instanceof SetupError, String(error));
      assertMatch(error.message, /hub could not (read|write)/);
    }
    assertEquals(await Deno.readTextFile(`${home}/.codex`), "a file");
  });
});

Deno.test({
  name: "a file holding the secret is made the user's alone, saying what it was",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (home) => {
      const io = clientFileIO({ home });
      const path = `${home}/mcp.json`;
      await Deno.writeTextFile(path, "{}");
      await Deno.chmod(path, 0o644);
      const out = await io.write(path, '{"a": 1}', undefined, "{}");
      assertEquals(out.warnings, ["made private: was 0644"]);
      assertEquals(await modeOf(path), 0o600);
      assertEquals(await io.permissionsWarning(path), undefined);
      await Deno.chmod(path, 0o4755);
      assertEquals((await io.write(path, "{}")).warnings, ["made private: was 0755"]);
      assertEquals((await Deno.stat(path)).mode! & 0o7777, 0o700, "setuid and group bits dropped");
      await Deno.chmod(path, 0o2644);
      await io.write(path, "{}", undefined, undefined, { private: false });
      assertEquals((await Deno.stat(path)).mode! & 0o7777, 0o644, "setgid dropped, mode kept");
    });
  },
});

Deno.test({
  name: "a file another user owns, or in a folder others can write, is refused unless forced",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (home) => {
      const me = (await Deno.stat(home)).uid!;
      const other = { uid: me + 4242, gid: (await Deno.stat(home)).gid! };
      const path = `${home}/proj/.mcp.json`;
      await Deno.mkdir(`${home}/proj`, { mode: 0o700 });
      await Deno.writeTextFile(path, "{}");
      const theirs = await rejection(clientFileIO({ home, user: other }).write(path, "[]"));
      assert(theirs instanceof SetupError, String(theirs));
      assertMatch(theirs.message, /owned by another user .*--force/);
      assertEquals(await Deno.readTextFile(path), "{}");
      const user = { uid: me, gid: other.gid + 1 };
      const io = clientFileIO({ home, user });
      for (const mode of [0o777, 0o770]) {
        await Deno.chmod(`${home}/proj`, mode);
        for (const target of [path, `${home}/proj/new/mcp.json`]) {
          const shared = await rejection(io.write(target, "[]"));
          assertMatch(shared.message, /other users can write .*chmod go-w.*--force/);
        }
      }
      assertEquals(await Deno.readTextFile(path), "{}");
      await clientFileIO({ home, user: { uid: me, gid: other.gid } }).write(path, "[1]");
      await Deno.chmod(`${home}/proj`, 0o1777);
      await io.write(path, "[2]");
      await Deno.chmod(`${home}/proj`, 0o777);
      await clientFileIO({ home, user: other, force: true }).write(path, "[3]");
      assertEquals(await Deno.readTextFile(path), "[3]");
    });
  },
});

Deno.test({
  name: "a project at the filesystem root is no root for links, and a planted backup is reported",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (home) => {
      await withTempDir(async (elsewhere) => {
        await Deno.writeTextFile(`${elsewhere}/x.json`, "{}");
        await Deno.symlink(`${elsewhere}/x.json`, `${home}/link.json`);
        const io = clientFileIO({ home, roots: ["/"] });
        assert(await rejection(io.read(`${home}/link.json`)) instanceof SetupError);
      });
      const io = clientFileIO({ home });
      const path = `${home}/mcp.json`;
      await Deno.writeTextFile(path, "{}", { mode: 0o600 });
      await Deno.symlink(`${home}/nowhere`, path + BACKUP_SUFFIX);
      const planted = await io.write(path, "[1]");
      assertEquals(planted, {
        warnings: ["no backup made: mcp.json.hub-backup exists and is not hub's"],
      });
      assertEquals(await io.read(`${home}/nowhere`), undefined);
      await Deno.remove(path + BACKUP_SUFFIX);
      assertEquals(await io.write(path, "[2]"), { backup: path + BACKUP_SUFFIX });
      assertEquals(await io.write(path, "[3]"), {}, "hub's own backup is kept silently");
    });
  },
});
