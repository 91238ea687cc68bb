/**
 * `hub start` refuses a config dir other users can write and an `auth.json` they can read, with
 * the exact chmod that fixes it, and warns about a `config.json` they can read. POSIX only.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { runHub, withTempDir } from "../helpers/hub_process.ts";

const posix = Deno.build.os !== "windows";

/** `hub start --show-config`: the whole start-up check, then it exits without serving. */
function start(dir: string) {
  return runHub(["start", "--show-config"], { configDir: dir });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test({
  name: "a config dir writable by other users (0777) is refused with the chmod 700 fix",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      await Deno.chmod(dir, 0o777);
      const refused = await start(dir);
      assert(refused.code !== 0, `exit ${refused.code}: ${refused.stdout}`);
      assertMatch(refused.stderr, new RegExp(`chmod 700 ${escape(dir)}`));
      assertEquals([...Deno.readDirSync(dir)], [], "nothing is written into it");
      await Deno.chmod(dir, 0o700);
      const fixed = await start(dir);
      assertEquals(fixed.code, 0, fixed.stderr);
    });
  },
});

Deno.test({
  name: "an auth.json readable by other users (0644) is refused: chmod 600 and rotate the secret",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      assertEquals((await start(dir)).code, 0);
      const auth = join(dir, "extension", "auth.json");
      await Deno.chmod(auth, 0o644);
      const refused = await start(dir);
      assert(refused.code !== 0, `exit ${refused.code}: ${refused.stdout}`);
      assertMatch(refused.stderr, new RegExp(`chmod 600 ${escape(auth)}`));
      assertMatch(refused.stderr, /hub config rotate-secret --confirm/);
      assert(!refused.stdout.includes("Bearer"), "the secret is not printed");
      await Deno.chmod(auth, 0o600);
      assertEquals((await start(dir)).code, 0);
    });
  },
});

Deno.test({
  name: "a config.json readable by other users (0644) starts with a warning giving chmod 600",
  ignore: !posix,
  fn: async () => {
    await withTempDir(async (dir) => {
      assertEquals((await start(dir)).code, 0);
      const config = join(dir, "config.json");
      await Deno.chmod(config, 0o644);
      const warned = await start(dir);
      assertEquals(warned.code, 0, warned.stderr);
      assertMatch(warned.stderr, new RegExp(`warning: .*chmod 600 ${escape(config)}`));
    });
  },
});
