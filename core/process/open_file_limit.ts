/**
 * The process's soft limit on open files (RLIMIT_NOFILE), from which the hub sizes its connection
 * cap (server/net/conn_cap.ts).
 */
import { denoCommand } from "./deno_command.ts";
import { loadOnce } from "../cache/load_once.ts";

/** Assumed where the limit cannot be read, and until it is: the smallest common default (macOS). */
export const FALLBACK_OPEN_FILE_LIMIT = 256;

/**
 * The soft RLIMIT_NOFILE from /proc/self/limits on Linux, read synchronously: this needs every
 * permission (see `readOpenFileLimit` for the hub's scoped flags); otherwise, and off Linux, a
 * conservative fallback.
 */
export function openFileLimit(readLimits: () => string = readProcLimits): number {
  try {
    const line = readLimits().split("\n").find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    if (soft === "unlimited") return Number.MAX_SAFE_INTEGER;
    const value = Number(soft);
    if (Number.isSafeInteger(value) && value > 0) return value;
  } catch {
    // not Linux, or /proc not readable
  }
  return FALLBACK_OPEN_FILE_LIMIT;
}

/**
 * /proc/self/limits of this process. Deno lets a process read /proc only with every permission,
 * which the hub's scoped flags do not give; then `readOpenFileLimit` asks a child.
 */
function readProcLimits(): string {
  if (Deno.build.os !== "linux") throw new Error("no /proc/self/limits");
  return Deno.readTextFileSync("/proc/self/limits");
}

const CHILD_TIMEOUT_MS = 10_000;
const PRINT_LIMITS = 'Deno.stdout.writeSync(Deno.readFileSync("/proc/self/limits"))';

/**
 * The open-file limit, read once per process: from /proc/self/limits where the flags allow it,
 * else from a short-lived `deno eval` child (the hub may run `deno`), which inherits our limits
 * and prints its own. The child takes 20–30 ms (10 s at most), without blocking: `hub start` asks
 * once it serves (cli/server/run_server.ts) and raises the connection cap from the fallback's then.
 */
export const readOpenFileLimit: () => Promise<number> = loadOnce(async () => {
  let text: string;
  try {
    text = readProcLimits();
  } catch (error) {
    const denied = error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
    text = denied ? await readLimitsInChild().catch(() => "") : "";
  }
  return openFileLimit(() => text);
});

async function readLimitsInChild(): Promise<string> {
  if (Deno.build.standalone) throw new Error("a compiled hub cannot run deno eval");
  const exec = denoCommand();
  if (!exec) throw new Error("may not run deno");
  const out = await new Deno.Command(exec, {
    args: ["eval", "--quiet", "--no-config", "-A", PRINT_LIMITS],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
    // A `deno` that hangs gets stopped: the fallback limit stays then. Nothing waits for this, so
    // the limit is generous for a loaded machine (a start takes 20–30 ms).
    signal: AbortSignal.timeout(CHILD_TIMEOUT_MS),
  }).output();
  if (!out.success) throw new Error("deno eval failed");
  return new TextDecoder().decode(out.stdout);
}
