/**
 * The hub of any checkout (`--root`) as a child process, for the performance table: started from
 * `<root>/main.ts start` under the permission flags of that checkout's `start` task (or as
 * `options.command`, such as an installed package, says), with a temp
 * HUB_CONFIG_DIR, DO_NOT_TRACK=1 and a free port; its CPU time and resident memory from /proc.
 */
import { join } from "node:path";
import { freePort, HUB_CHILD_ENV, taskFlags } from "../tests/helpers/hub_process.ts";

export { freePort, taskFlags };
export { rssMb } from "../tests/helpers/fuzz_hub.ts";

/** User + system CPU of `pid` (all its threads) in microseconds, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * (1_000_000 / CLOCK_TICKS);
}
/** USER_HZ: 100 on every Linux build this runs on. */
const CLOCK_TICKS = 100;

export interface HubChild {
  pid: number;
  port: number;
  url: string;
  secret: string;
  configDir: string;
  output(): string;
  stop(): Promise<void>;
}

export interface HubChildOptions {
  root: string;
  configDir: string;
  /** Another program that runs `hub start` (an installed package); default the checkout's source. */
  command?: { program: string; args: string[] };
}

/** `deno run <start flags> <root>/main.ts start` (or `options.command`) on a free port. */
export function spawnHub(options: HubChildOptions) {
  const port = freePort();
  const command = options.command ?? {
    program: Deno.execPath(),
    args: ["run", ...taskFlags(options.root, "start", "main.ts"), join(options.root, "main.ts")]
      .concat("start"),
  };
  const child = new Deno.Command(command.program, {
    args: command.args,
    cwd: options.root,
    env: {
      HUB_CONFIG_DIR: options.configDir,
      PORT: String(port),
      ...HUB_CHILD_ENV,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      if (text.length < 200_000) text += chunk;
    }
  };
  const done = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already exited
    }
    await child.status;
    await done;
  };
  return { child, port, output: () => text, stop };
}

/** Polls `/health` every 2 ms until it answers `{"status":"ok"}`; throws after `timeoutMs`. */
export async function waitHealthy(
  port: number,
  exited: () => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline && !exited()) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      const body = await res.json().catch(() => ({}));
      if (res.status === 200 && body?.status === "ok") return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`The hub on port ${port} did not answer /health ok within ${timeoutMs} ms`);
}

/** Starts the hub and waits until `/health` is ok; reads the secret it wrote. */
export async function startHubChild(options: HubChildOptions): Promise<HubChild> {
  const spawned = spawnHub(options);
  let exited = false;
  void spawned.child.status.then(() => (exited = true));
  try {
    await waitHealthy(spawned.port, () => exited);
  } catch (error) {
    await spawned.stop();
    throw new Error(`${(error as Error).message}. Output:\n${spawned.output().slice(-3000)}`);
  }
  const auth = JSON.parse(
    await Deno.readTextFile(join(options.configDir, "extension", "auth.json")),
  );
  return {
    pid: spawned.child.pid,
    port: spawned.port,
    url: `http://127.0.0.1:${spawned.port}`,
    secret: auth.secret,
    configDir: options.configDir,
    output: spawned.output,
    stop: spawned.stop,
  };
}
