/**
 * Writers killed with SIGKILL in the middle of write bursts leave neither a lock that stalls the
 * next writer nor temp files: `hub start` breaks the dead owner's lock at once, removes the temp
 * files of dead writers (and only those), and a `hub config set` then completes too.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { freePort, ROOT, runHub, startHub, withTempDir } from "../helpers/hub_process.ts";
import { spawnCommand } from "../helpers/hub_process.ts";

const CHILD = join(ROOT, "tests", "helpers", "config_writer_child.ts");
const KILLS = 5;

/** Starts the writer child in `mode`, waits for its line, lets it run, then kills it with -9. */
async function killMidBurst(mode: "burst" | "hold", dir: string, runMs: number): Promise<number> {
  const child = spawnCommand(
    `config writer (${mode})`,
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-all", CHILD, mode, dir],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }),
  );
  await child.waitFor(mode === "hold" ? "holding" : "ready", { timeoutMs: 30_000 });
  await new Promise((r) => setTimeout(r, runMs));
  await child.stop("SIGKILL");
  return child.child.pid;
}

/** Our temp files and locks in the config dir and extension/. */
function leftovers(dir: string): string[] {
  const names: string[] = [];
  for (const folder of [dir, join(dir, "extension")]) {
    for (const entry of Deno.readDirSync(folder)) {
      if (/\.tmp$|\.lock$|\.lock\.break$/.test(entry.name)) names.push(entry.name);
    }
  }
  return names.sort();
}

Deno.test({
  name: "SIGKILL during write bursts, then hub start and config set finish and leave no lock/tmp",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withTempDir(async (dir) => {
      const env = { HUB_PORT: String(freePort()) };
      const setup = await runHub(["config", "set", "setting.crash.before", "1"], {
        configDir: dir,
        env,
      });
      assertEquals(setup.code, 0, setup.stderr);

      let lastPid = 0;
      for (let i = 0; i < KILLS; i++) lastPid = await killMidBurst("burst", dir, 50 + i * 60);
      // The last writer dies holding the lock, for certain, and with a temp file beside it.
      lastPid = await killMidBurst("hold", dir, 0);
      assert(leftovers(dir).includes("config.json.lock"), "the killed writer left its lock");
      await Deno.writeTextFile(join(dir, `.config.json.${lastPid}.dead1.tmp`), "{");
      await Deno.writeTextFile(join(dir, "extension", `.auth.json.${lastPid}.dead2.tmp`), "{");
      // Not ours to remove: a live writer's temp file, and a name that is not our pattern.
      const live = `.config.json.${Deno.pid}.live.tmp`;
      await Deno.writeTextFile(join(dir, live), "{");
      await Deno.writeTextFile(join(dir, "notes.tmp"), "mine");

      const hub = await startHub({ configDir: dir }); // throws if it never listens
      try {
        assertEquals(leftovers(dir), [live, "notes.tmp"].sort(), "only others' files are left");
        const set = await runHub(["config", "set", "setting.crash.after", "2"], {
          configDir: dir,
          env: { HUB_PORT: String(hub.port) },
        });
        assertEquals(set.code, 0, set.stderr);
      } finally {
        assertEquals(await hub.stop(), 0);
      }
      const config = JSON.parse(await Deno.readTextFile(join(dir, "config.json")));
      assertEquals(config.settings.crash, { before: 1, after: 2 });
      assert(typeof config.settings.burst?.round === "number", "the bursts wrote config.json");
      const auth = JSON.parse(await Deno.readTextFile(join(dir, "extension", "auth.json")));
      assert(/^[0-9a-f]{64}$/.test(auth.secret), "auth.json is whole");
      assertEquals(leftovers(dir), [live, "notes.tmp"].sort());
    });
  },
});
