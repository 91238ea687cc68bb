/**
 * Floods for the security suite: a real hub under a low open-file limit, idle connections, and
 * the churn of a local process that connects, sends a request and keeps the connection.
 */
import { join } from "node:path";
import { HUB_CHILD_ENV, ROOT, taskPermissionFlags } from "./hub_process.ts";
import { closeQuietly } from "./raw_http.ts";

/** Starts `hub start --port 0` under `ulimit -n <limit>`; returns its port and a stop function. */
export async function startHubWithFdLimit(configDir: string, limit: number) {
  const command = [
    Deno.execPath(),
    "run",
    "--quiet",
    ...taskPermissionFlags(),
    join(ROOT, "main.ts"),
  ]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("bash", {
    args: ["-c", `ulimit -n ${limit} && exec ${command} start --port 0`],
    cwd: ROOT,
    env: {
      HUB_CONFIG_DIR: configDir,
      ...HUB_CHILD_ENV,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) output += chunk;
  };
  const done = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let exited = false;
  child.status.then(() => (exited = true));
  const deadline = Date.now() + 30_000;
  let port = 0;
  while (!port) {
    port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? 0);
    if (!port && (exited || Date.now() > deadline)) {
      if (!exited) child.kill("SIGKILL");
      await done;
      throw new Error(`hub did not start. Output:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    port,
    pid: child.pid,
    isAlive: () => !exited,
    output: () => output,
    async stop() {
      if (!exited) child.kill("SIGTERM");
      const status = await child.status;
      await done;
      return status.code;
    },
  };
}

/** Opens up to `count` idle TCP connections to `port`. */
export async function openIdle(port: number, count: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < count; i++) {
    try {
      conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    } catch {
      // refused or reset: the flood goes on
    }
  }
  return conns;
}

export function closeAll(conns: Deno.Conn[]): void {
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // closed by the hub already
    }
  }
}

/**
 * Connects to `port` from `loops` loops until `stop` resolves, sends `GET /health` on each
 * connection and keeps it, closing the oldest once `held` are kept: the churn of a local flood.
 * `progress.opened` counts its connections.
 */
export async function churnFlood(
  port: number,
  stop: Promise<void>,
  progress = { opened: 0 },
  loops = 8,
  held = 400,
) {
  const request = new TextEncoder().encode(
    `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
  );
  const kept: Deno.Conn[] = [];
  let stopped = false;
  stop.then(() => (stopped = true));
  const loop = async () => {
    while (!stopped) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => undefined);
      if (!conn) continue;
      progress.opened++;
      conn.write(request).catch(() => {});
      kept.push(conn);
      if (kept.length > held) closeQuietly(kept.shift()!);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  closeAll(kept);
}
