/**
 * Idle sockets cannot starve real clients: against a hub limited to 1,024 open files, a local
 * process holds 1,500 connections that never send a byte and reopens each one the hub closes.
 * `held`: the requests start as soon as the flood is open; `churn`: once the hub has closed (and
 * the flood reopened) as many again. Every authenticated `GET /tools` and every unauthenticated
 * `GET /health` sent meanwhile is answered 200, and the flood's open sockets, counted before and
 * after each request, never fall below what the hub's cap holds: the requests ran under pressure.
 * (A slow machine may make a request wait in the system's queue for a second or more; the
 * timeouts are generous and nothing is timed.)
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT, withTempDir } from "../helpers/hub_process.ts";
import { startHubWithFdLimit } from "../helpers/fd_limit_hub.ts";
import { connectionCap, FDS_PER_CONNECTION } from "../../server/net/listen.ts";
import { rawSend } from "../helpers/raw_http.ts";

const FD_LIMIT = 1024;
const FLOOD = 1500;
const REQUESTS = 33;
const CHILD = join(ROOT, "tests", "helpers", "idle_flood_child.ts");
/**
 * Silent sockets the hub keeps at this limit (one descriptor each); the flood must hold at least
 * half of that around every request (its count is sampled every 100 ms).
 */
const PRESSURE = (connectionCap(FD_LIMIT) * FDS_PER_CONNECTION) / 2;

/** The flood in its own process (and with room for its descriptors), as an attacker runs it. */
function startFlood(port: number) {
  const command = [Deno.execPath(), "run", "--allow-net=127.0.0.1", CHILD, port, FLOOD]
    .map((word) => `'${String(word).replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("bash", {
    args: ["-c", `ulimit -n ${FLOOD + 500} 2>/dev/null; exec ${command}`],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const progress = { opened: 0, open: 0 };
  const read = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      const last = /opened (\d+) open (\d+)\s*$/.exec(chunk);
      if (last) [progress.opened, progress.open] = [Number(last[1]), Number(last[2])];
    }
  })();
  return {
    progress,
    async stop() {
      child.kill("SIGKILL");
      await child.status;
      await read;
    },
  };
}

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One request on a new connection; its status (undefined: closed without an answer). */
async function status(port: number, path: string, secret?: string): Promise<number | undefined> {
  const auth = secret ? `Authorization: Bearer ${secret}\r\n` : "";
  const request =
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}Connection: close\r\n\r\n`;
  return (await rawSend(port, request, 120_000).catch(() => ({ status: undefined }))).status;
}

for (const mode of ["held", "churn"] as const) {
  Deno.test({
    name:
      `${FLOOD} idle sockets (${mode}) against a ulimit -n ${FD_LIMIT} hub: every /tools and /health is answered`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      await withTempDir(async (dir) => {
        const hub = await startHubWithFdLimit(dir, FD_LIMIT);
        const secret = JSON.parse(await Deno.readTextFile(join(dir, "extension", "auth.json")))
          .secret;
        // The cap for the real limit is set once it has been read, just after the start.
        await until(() => hub.output().includes("Loaded"), "the hub to load its plugins", 30_000);
        const flood = startFlood(hub.port);
        const failures: string[] = [];
        const pressure: number[] = [];
        try {
          await until(() => flood.progress.opened >= FLOOD, `${FLOOD} flood sockets`, 120_000);
          if (mode === "churn") {
            // Churning: the hub has closed (and the flood reopened) at least as many again.
            const from = flood.progress.opened;
            await until(() => flood.progress.opened >= from + FLOOD, "the churn", 120_000);
          }
          for (let i = 0; i < REQUESTS; i++) {
            pressure.push(flood.progress.open);
            const tools = await status(hub.port, "/tools", secret);
            if (tools !== 200) failures.push(`/tools #${i}: ${tools}`);
            pressure.push(flood.progress.open);
            const health = await status(hub.port, "/health");
            if (health !== 200) failures.push(`/health #${i}: ${health}`);
          }
          pressure.push(flood.progress.open);
          assert(hub.isAlive(), `the hub died:\n${hub.output()}`);
          console.log(
            `${mode}: the flood opened ${flood.progress.opened} connections in all, ` +
              `${Math.min(...pressure)}-${Math.max(...pressure)} open around the requests`,
          );
        } finally {
          await flood.stop();
        }
        assertEquals(failures, [], `requests not answered during the flood:\n${hub.output()}`);
        assert(
          Math.min(...pressure) >= PRESSURE,
          `the flood held fewer than ${PRESSURE} sockets around a request: ${pressure.join(" ")}`,
        );
        assertEquals(await status(hub.port, "/health"), 200, "after the flood");
        const log = await Deno.readTextFile(join(dir, "server.log"));
        assert(
          !/stopped accepting/.test(log),
          `the internal server ran out of descriptors:\n${log}`,
        );
        assertEquals(await hub.stop(), 0, hub.output());
      });
    },
  });
}
