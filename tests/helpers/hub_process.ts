/**
 * Runs the real `hub` (main.ts) as a subprocess, under exactly the permission flags of the
 * `deno.json` "hub" task, with a temp HUB_CONFIG_DIR. Tests never touch the real ~/.hub, and
 * send no telemetry (DO_NOT_TRACK=1) unless their env says otherwise.
 */
import { join } from "node:path";

export const ROOT = join(import.meta.dirname!, "..", "..");
const MAIN = join(ROOT, "main.ts");

/**
 * The environment of every hub a test or bench starts (over its HUB_CONFIG_DIR): no package
 * discovery, no colours, and no telemetry unless the caller's env says otherwise.
 */
/**
 * Set for every hub a test starts. INIT_CWD is emptied: `deno task test` sets it to the checkout,
 * and a child that inherited it would take the checkout, not its own `cwd`, for the user's folder.
 */
export const HUB_CHILD_ENV = {
  HUB_SKIP_PKG_DISCOVERY: "1",
  NO_COLOR: "1",
  DO_NOT_TRACK: "1",
  INIT_CWD: "",
};

/** The words of `<root>/deno.json` task `task` between `deno run` and `script`: its flags. */
export function taskFlags(root: string, task: string, script: string): string[] {
  const denoJson = JSON.parse(Deno.readTextFileSync(join(root, "deno.json")));
  const words = String(denoJson.tasks?.[task] ?? "").split(/\s+/);
  const from = words.indexOf("run");
  const to = words.indexOf(script);
  if (from < 0 || to < 0) {
    throw new Error(
      `Reading the flags of task "${task}" in ${root}/deno.json: no "run … ${script}"`,
    );
  }
  return words.slice(from + 1, to);
}

/** The permission flags of the `hub` task in deno.json (what users run). */
export function taskPermissionFlags(): string[] {
  return taskFlags(ROOT, "hub", "main.ts");
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HubEnv {
  configDir: string;
  env?: Record<string, string>;
  cwd?: string;
  /** A script run instead of main.ts, with the same flags and arguments (a test's own hub). */
  program?: string;
}

function hubCommand(args: string[], opts: HubEnv): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...taskPermissionFlags(), opts.program ?? MAIN, ...args],
    cwd: opts.cwd ?? ROOT,
    env: {
      HUB_CONFIG_DIR: opts.configDir,
      // No telemetry unless a test opts in (its env sets DO_NOT_TRACK="" or a receiver).
      ...HUB_CHILD_ENV,
      ...opts.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/**
 * Runs a command to completion. One still running after `timeoutMs` (default 60 s) is killed and
 * the call throws, so a command that wrongly starts a server fails instead of hanging.
 */
export async function runCommand(
  label: string,
  command: Deno.Command,
  timeoutMs = 60_000,
): Promise<RunResult> {
  const child = command.spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }, timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const dec = new TextDecoder();
  const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  if (timedOut) {
    throw new Error(
      `${label} did not finish within ${timeoutMs} ms.
` +
        `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
    );
  }
  return result;
}

/** Runs `hub <args>` to completion (see runCommand). */
export function runHub(args: string[], opts: HubEnv & { timeoutMs?: number }): Promise<RunResult> {
  return runCommand(`hub ${args.join(" ")}`, hubCommand(args, opts), opts.timeoutMs);
}

export interface SpawnedProcess {
  child: Deno.ChildProcess;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Waits until stdout (or `stream`) matches `pattern`; throws with the output after a timeout. */
  waitFor(
    pattern: RegExp | string | ((text: string) => boolean),
    opts?: { stream?: "stdout" | "stderr"; timeoutMs?: number },
  ): Promise<void>;
  /** Sends `signal` (default SIGTERM) unless it already exited, then waits; returns the exit code. */
  stop(signal?: Deno.Signal): Promise<number>;
}
export type SpawnedHub = SpawnedProcess;

/** Starts a command without waiting for it to finish, collecting its output. */
export function spawnCommand(label: string, command: Deno.Command): SpawnedProcess {
  const child = command.spawn();
  let out = "";
  let err = "";
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) add(chunk);
  };
  const done = Promise.all([
    pump(child.stdout, (t) => (out += t)),
    pump(child.stderr, (t) => (err += t)),
  ]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async waitFor(pattern, { stream = "stdout", timeoutMs = 20_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      const matches = () => {
        const text = stream === "stdout" ? out : err;
        if (typeof pattern === "function") return pattern(text);
        return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
      };
      while (!matches()) {
        if (exited || Date.now() > deadline) {
          throw new Error(
            `${label}: ${stream} never matched ${pattern}` +
              `${exited ? " (process exited)" : ""}.\nstdout:\n${out}\nstderr:\n${err}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(signal: Deno.Signal = "SIGTERM") {
      if (!exited) {
        try {
          child.kill(signal);
        } catch {
          // exited meanwhile
        }
      }
      const s = await status;
      await done;
      return s.code;
    },
  };
}

/** Starts `hub <args>` without waiting for it to finish (e.g. `hub logs -f`, `hub start`). */
export function spawnHub(args: string[], opts: HubEnv): SpawnedHub {
  return spawnCommand(`hub ${args.join(" ")}`, hubCommand(args, opts));
}

export interface RunningHub {
  port: number;
  url: string;
  secret: string;
  configDir: string;
  child: Deno.ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then wait for exit; returns the exit code. */
  stop(): Promise<number>;
}

/** Starts `hub start --port <port>` (default 0) and waits until it listens. */
export async function startHub(
  opts: HubEnv & { port?: number; args?: string[] },
): Promise<RunningHub> {
  const args = ["start", "--port", String(opts.port ?? 0), ...(opts.args ?? [])];
  const child = hubCommand(args, opts).spawn();
  let text = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  };
  const done = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const deadline = Date.now() + 20_000;
  let port = 0;
  while (!port) {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (match) port = Number(match[1]);
    else if (Date.now() > deadline) {
      child.kill("SIGKILL");
      await done;
      throw new Error(`hub did not start within 20 s. Output:\n${text}`);
    } else await new Promise((r) => setTimeout(r, 25));
  }
  const auth = JSON.parse(await Deno.readTextFile(join(opts.configDir, "extension", "auth.json")));
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    secret: auth.secret,
    configDir: opts.configDir,
    child,
    output: () => text,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already exited
      }
      const status = await child.status;
      await done;
      return status.code;
    },
  };
}

/** A fresh temp config dir; remove it with `Deno.remove(dir, { recursive: true })`. */
export function tempConfigDir(): Promise<string> {
  return Deno.makeTempDir({ prefix: "hub-test-" });
}

/** Runs `fn` with a fresh temp dir and removes the dir afterwards. */
export async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await tempConfigDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A port that was free a moment ago. */
export function freePort(): number {
  // Below the kernel's ephemeral range (Linux: from 32768), where every port-0 listener and every
  // outgoing connection of the tests' hubs takes its ports: a port chosen here and bound a moment
  // later is not taken in between by one of those.
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      return port;
    } catch {
      // taken: try another
    }
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Whether a file or folder exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
