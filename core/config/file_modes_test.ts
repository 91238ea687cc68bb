import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { linkToDevZero, replaceWithFifo } from "../../tests/helpers/file_kinds.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { checkFileModes, UNSAFE_MODE } from "./file_modes.ts";
import { isUserError } from "../cli/user_error.ts";
import { hubPaths } from "./paths.ts";

const posix = Deno.build.os !== "windows";

async function layout(dir: string) {
  const paths = hubPaths(dir);
  await Deno.mkdir(paths.extensionDir, { mode: 0o700 });
  await Deno.writeTextFile(paths.auth, "{}", { mode: 0o600 });
  await Deno.writeTextFile(paths.config, "{}", { mode: 0o600 });
  return paths;
}

Deno.test({
  name: "safe modes pass silently; missing files are fine",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      const warnings: string[] = [];
      await checkFileModes(hubPaths(dir), (m) => warnings.push(m));
      await checkFileModes(await layout(dir), (m) => warnings.push(m));
      await Deno.chmod(dir, 0o755); // readable, not writable, by others: allowed
      await checkFileModes(hubPaths(dir), (m) => warnings.push(m));
      assertEquals(warnings, []);
    });
  },
});

Deno.test({
  name: "every refused mode is listed with its fix in one error",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      const paths = await layout(dir);
      await Deno.chmod(dir, 0o770);
      await Deno.chmod(paths.extensionDir, 0o702);
      await Deno.chmod(paths.auth, 0o640);
      await Deno.chmod(paths.config, 0o620);
      const error = await checkFileModes(paths).then(() => undefined, (e: Error) => e);
      if (!isUserError(error, UNSAFE_MODE)) throw new Error(`not refused: ${error}`);
      assertMatch(error.message, new RegExp(`mode 0770\\)[^\\n]*chmod 700 ${dir}\\n`));
      assertMatch(error.message, new RegExp(`mode 0702\\)[^\\n]*chmod 700 ${paths.extensionDir}`));
      assertMatch(
        error.message,
        /mode 0640\)[^\n]*chmod 600 \S+auth\.json and then hub config rotate-secret --confirm/,
      );
      assertMatch(error.message, /config\.json is writable by other users \(mode 0620\)/);
      await Deno.chmod(dir, 0o700);
    });
  },
});

Deno.test({
  name: "a group-writable auth.json is refused too; a readable config.json only warns",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      const paths = await layout(dir);
      await Deno.chmod(paths.auth, 0o620);
      await assertRejects(checkFileModes(paths), /auth\.json is readable or writable/);
      await Deno.chmod(paths.auth, 0o600);
      await Deno.chmod(paths.config, 0o604);
      const warnings: string[] = [];
      await checkFileModes(paths, (m) => warnings.push(m));
      assertEquals(warnings.length, 1);
      assertMatch(warnings[0], /readable by other users \(mode 0604\)\. Fix: chmod 600 /);
    });
  },
});

Deno.test({
  name: "paths with spaces or quotes are quoted for the shell",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (base) => {
      const dir = `${base}/my hub's dir`;
      await Deno.mkdir(dir, { mode: 0o700 });
      await Deno.chmod(dir, 0o777);
      await assertRejects(checkFileModes(hubPaths(dir)), (e: Error) => {
        assertMatch(e.message, /chmod 700 '.*\/my hub'\\''s dir'/);
        return true;
      });
    });
  },
});

Deno.test({
  name:
    "config.json or auth.json that is a FIFO or a link to /dev/zero is refused with mv, not chmod",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      const paths = await layout(dir);
      await linkToDevZero(paths.config);
      await replaceWithFifo(paths.auth);
      const error = await checkFileModes(paths).then(() => undefined, (e: Error) => e);
      if (!isUserError(error, UNSAFE_MODE)) throw new Error(`not refused: ${error}`);
      assertMatch(
        error.message,
        /config\.json is a character device \(such as \/dev\/zero\)[^\n]*Fix: move it away \(mv /,
      );
      assertMatch(error.message, /auth\.json is a named pipe \(FIFO\), not a regular file/);
      assert(!/chmod/.test(error.message), error.message);
    });
  },
});
