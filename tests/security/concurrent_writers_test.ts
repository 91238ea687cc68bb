/**
 * 100 `hub config set` processes write the same config.json at once: every one waits its turn for
 * the lock (none times out), exits 0, and every value is saved. They run 25 at a time, so that two
 * shared cores are not swamped by 100 Deno start-ups, yet 25 writers contend for the lock at once.
 */
import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { freePort, runHub, type RunResult, withTempDir } from "../helpers/hub_process.ts";

const WRITERS = 100;
const IN_FLIGHT = 100;

/** Runs `jobs` with at most `limit` in flight at a time, keeping results in order. */
async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** A process Deno could not start: it lost the node_modules link race, before hub's code ran. */
function startRace(result: RunResult): boolean {
  return result.code !== 0 &&
    /File exists \(os error 17\), symlink .*node_modules/.test(result.stderr);
}

Deno.test("100 concurrent `hub config set` writers all exit 0 and every value is saved", async () => {
  await withTempDir(async (dir) => {
    const env = { HUB_PORT: String(freePort()) }; // no hub to notify
    const first = await runHub(["config", "set", "setting.race.warmup", "0"], {
      configDir: dir,
      env,
    });
    assertEquals(first.code, 0, first.stderr);

    const write = (i: number) =>
      runHub(["config", "set", `setting.race.k${i}`, String(i)], {
        configDir: dir,
        env,
        timeoutMs: 180_000,
      });
    const jobs = Array.from({ length: WRITERS }, (_, i) => async () => {
      const result = await write(i);
      // Deno itself may lose a race linking the checkout's node_modules while 100 processes
      // start at once ("File exists", before hub's code runs): that start is tried again; a
      // writer that ran and failed is a failure.
      return startRace(result) ? await write(i) : result;
    });
    const results: RunResult[] = await pool(jobs, IN_FLIGHT);

    const failed = results
      .map((r, i) => ({ i, r }))
      .filter(({ r }) => r.code !== 0)
      .map(({ i, r }) => `writer ${i} (exit ${r.code}): ${r.stderr.slice(0, 300)}`);
    assertEquals(failed, [], `${failed.length} of ${WRITERS} writers failed`);

    const saved = JSON.parse(await Deno.readTextFile(join(dir, "config.json"))).settings.race;
    const expected: Record<string, number> = { warmup: 0 };
    for (let i = 0; i < WRITERS; i++) expected[`k${i}`] = i;
    assertEquals(saved, expected);
    const leftovers = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      n.endsWith(".tmp") || n.endsWith(".lock")
    );
    assertEquals(leftovers, [], "no lock or temp file is left behind");
  });
});
