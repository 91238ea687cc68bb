/**
 * Security: `server.log` cannot grow without bound. Like `audit.log`, it rotates to `server.log.1`
 * before a line would take it past 10 MB, in a foreground hub and in a background one (whose
 * log the hub process itself writes), and a flood of requests leaves two bounded files.
 */
import { join } from "node:path";
import { SERVER_LOG_MAX_BYTES } from "../../server/log/logger.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { freePort, runHub, startHub, tempConfigDir } from "../helpers/hub_process.ts";

const OLD_LINE = "2020-01-01T00:00:00.000Z INFO  an old line from an earlier run\n";

/** Fills `<dir>/server.log` with old lines until it is `room` bytes short of the limit. */
async function fillLog(dir: string, room: number): Promise<number> {
  const count = Math.floor((SERVER_LOG_MAX_BYTES - room) / OLD_LINE.length);
  await Deno.writeTextFile(join(dir, "server.log"), OLD_LINE.repeat(count), { mode: 0o600 });
  return count * OLD_LINE.length;
}

async function sizes(dir: string): Promise<{ current: number; previous: number }> {
  const size = (name: string) => Deno.stat(join(dir, name)).then((s) => s.size, () => -1);
  return { current: await size("server.log"), previous: await size("server.log.1") };
}

Deno.test("a flood of logged requests rotates server.log and keeps both files bounded", async () => {
  const dir = await tempConfigDir();
  try {
    const filled = await fillLog(dir, 20_000);
    // At debug level every request is logged: 600 of them need more than the 20 KB left.
    const hub = await startHub({ configDir: dir, env: { HUB_LOG_LEVEL: "debug" } });
    try {
      for (let i = 0; i < 600; i++) {
        const res = await fetch(`${hub.url}/health?n=${i}`);
        await res.body?.cancel();
      }
    } finally {
      assertEquals(await hub.stop(), 0, hub.output().slice(-2000));
    }
    const { current, previous } = await sizes(dir);
    assert(previous >= filled && previous <= SERVER_LOG_MAX_BYTES, `server.log.1: ${previous}`);
    assert(current > 0 && current < SERVER_LOG_MAX_BYTES, `server.log: ${current}`);
    const text = await Deno.readTextFile(join(dir, "server.log"));
    assert(!text.includes(OLD_LINE), "the old lines moved to server.log.1");
    assert(text.includes("Stopped"), "the newest lines are in server.log");

    // `hub logs` asked for more lines than server.log has goes on into server.log.1.
    const lines = text.trimEnd().split("\n");
    const shown = await runHub(["logs", "--lines", String(lines.length + 2)], { configDir: dir });
    assertEquals(shown.code, 0, shown.stderr);
    const printed = shown.stdout.trimEnd().split("\n");
    assertEquals(printed.length, lines.length + 2);
    assertEquals(printed.slice(2), lines);
    const older = (await Deno.readTextFile(join(dir, "server.log.1"))).trimEnd().split("\n");
    assertEquals(printed.slice(0, 2), older.slice(-2));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a background hub rotates the server.log it writes", async () => {
  const dir = await tempConfigDir();
  const port = freePort();
  try {
    const filled = await fillLog(dir, 10);
    const started = await runHub(["start", "--background", "--port", String(port)], {
      configDir: dir,
    });
    assertEquals(started.code, 0, started.stderr);
    const stopped = await runHub(["stop"], { configDir: dir });
    assertEquals(stopped.code, 0, stopped.stderr);
    const { previous } = await sizes(dir);
    assertEquals(previous, filled, "the full log became server.log.1");
    const text = await Deno.readTextFile(join(dir, "server.log"));
    assert(text.includes(`listening on http://127.0.0.1:${port}`), text);
    assert(!text.includes(OLD_LINE));
  } finally {
    await runHub(["stop"], { configDir: dir }).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
