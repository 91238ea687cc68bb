/**
 * `hub stop` signals only this config dir's hub. A second real hub (another config dir, another
 * port) named by this dir's `server.pid` — in the old bare-pid format, as a record copied from the
 * other dir, or as a forged record naming this dir — is never signalled and keeps running.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  exists,
  freePort,
  runHub,
  type RunningHub,
  startHub,
  tempConfigDir,
} from "../helpers/hub_process.ts";

const LONG = 60_000;

function isAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, {
      signal: AbortSignal.timeout(3000),
    });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

Deno.test({
  name: "hub stop refuses a server.pid that names another config dir's hub, which keeps running",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const mine = await tempConfigDir(); // this config dir: a foreground hub, no server.pid
    const other = await tempConfigDir(); // the other hub: background, its own server.pid
    const otherPort = freePort();
    let hub: RunningHub | undefined;
    let otherPid: number | undefined;
    try {
      hub = await startHub({ configDir: mine });
      const started = await runHub(["start", "--background", "--port", String(otherPort)], {
        configDir: other,
        timeoutMs: LONG,
      });
      assertEquals(started.code, 0, started.stderr);
      const otherRecord = JSON.parse(await Deno.readTextFile(join(other, "server.pid")));
      otherPid = (otherRecord.pid ?? otherRecord) as number;

      const pidFile = join(mine, "server.pid");
      const stop = () => runHub(["stop", "--port", String(freePort())], { configDir: mine });
      const stillRuns = async (label: string) => {
        await new Promise((r) => setTimeout(r, 300));
        assert(isAlive(otherPid!), `${label}: hub stop killed the other hub (pid ${otherPid})`);
        assert(await answers(otherPort), `${label}: the other hub still answers`);
      };

      // 1. The old format: a bare pid cannot be verified; refuse and say how to stop it by hand.
      await Deno.writeTextFile(pidFile, `${otherPid}\n`);
      const legacy = await stop();
      await stillRuns("bare pid");
      assert(legacy.code !== 0, `exit ${legacy.code}: ${legacy.stdout}`);
      assertMatch(legacy.stderr, /old format/);
      assertMatch(legacy.stderr, new RegExp(`kill ${otherPid}`));

      // The record: what `hub stop` checks.
      assertEquals(otherRecord.port, otherPort);
      assertEquals(otherRecord.configDir, other);
      assert(typeof otherRecord.startTime === "string", "the record has the start time");

      // 2. The other dir's record copied here: it names another config dir.
      await Deno.writeTextFile(pidFile, JSON.stringify(otherRecord));
      const copied = await stop();
      assertEquals(copied.code, 0, copied.stderr);
      assertMatch(copied.stdout, /another config dir.*nothing was signalled/s);
      assert(!(await exists(pidFile)), "the foreign file is removed");
      await stillRuns("copied record");

      // 3. A forged record naming this dir, the other hub's pid, start time and port: that hub
      //    does not know this dir's secret.
      await Deno.writeTextFile(pidFile, JSON.stringify({ ...otherRecord, configDir: mine }));
      const forged = await stop();
      assertEquals(forged.code, 0, forged.stderr);
      assertMatch(forged.stdout, /does not know this config dir's secret.*nothing was signalled/s);
      await stillRuns("forged record, other port");

      // 4. The same, with the port of this dir's own hub: it reports another pid.
      const onMyPort = { ...otherRecord, configDir: mine, port: hub.port };
      await Deno.writeTextFile(pidFile, JSON.stringify(onMyPort));
      const mismatch = await stop();
      assertEquals(mismatch.code, 0, mismatch.stderr);
      assertMatch(mismatch.stdout, new RegExp(`is pid ${hub.child.pid}, not ${otherPid}`));
      await stillRuns("forged record, this hub's port");
      assert(await answers(hub.port), "this dir's foreground hub was not signalled either");

      // 5. A reused pid: the recorded start time differs.
      const reused = { ...otherRecord, configDir: mine, startTime: "Thu Jan  1 00:00:00 1970" };
      await Deno.writeTextFile(pidFile, JSON.stringify(reused));
      const stale = await stop();
      assertEquals(stale.code, 0, stale.stderr);
      assertMatch(stale.stdout, /no longer running.*nothing was signalled/s);
      await stillRuns("reused pid");

      // The other dir's own `hub stop` verifies its record and stops it.
      const own = await runHub(["stop"], {
        configDir: other,
        env: { HUB_PORT: String(otherPort) },
      });
      assertEquals(own.code, 0, own.stderr);
      assertMatch(own.stdout, new RegExp(`Stopped hub \\(pid ${otherPid}\\)`));
      assert(!(await exists(join(other, "server.pid"))));
    } finally {
      if (otherPid !== undefined && isAlive(otherPid)) Deno.kill(otherPid, "SIGKILL");
      if (hub) assertEquals(await hub.stop(), 0);
      await Deno.remove(mine, { recursive: true });
      await Deno.remove(other, { recursive: true });
    }
  },
});
