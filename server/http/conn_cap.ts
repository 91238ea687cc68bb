/**
 * How many client connections the hub keeps open at once, derived from the process's soft limit
 * on open files so that a flood of connections can never use up the descriptors the hub needs for
 * its files, child processes and the connections it already serves.
 */

/**
 * Each proxied connection holds three descriptors: the client, our upstream end, the server's. A
 * closed one holds two until the server has closed its side, and up to half the cap may be closing:
 * four per connection in all.
 */
export const FDS_PER_CONNECTION = 4;
/** Legitimate use is a few agents and one browser; more than this is a flood. */
export const MAX_CONNECTIONS_CEILING = 1024;
const MIN_CONNECTIONS = 8;
/** Assumed where the limit cannot be read: the smallest common default (macOS). */
const FALLBACK_OPEN_FILE_LIMIT = 256;

/** The soft RLIMIT_NOFILE from /proc/self/limits on Linux, or a conservative fallback elsewhere. */
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
 * The connection cap for an open-file limit: a quarter of the descriptors (at least 64) stay
 * free for files, plugins, npm and esbuild children; the rest is shared by connections.
 */
export function connectionCap(openFiles: number): number {
  const reserve = Math.max(64, Math.floor(openFiles / 4));
  const cap = Math.floor((openFiles - reserve) / FDS_PER_CONNECTION);
  return Math.min(MAX_CONNECTIONS_CEILING, Math.max(MIN_CONNECTIONS, cap));
}

/** How many closed connections may wait for the server to close its side at once. */
export function closingCapacity(cap: number): number {
  return Math.max(1, Math.ceil(cap / 2));
}

/**
 * /proc/self/limits of this process. Deno lets a process read /proc only with every permission,
 * which the hub's scoped flags do not give; then `readOpenFileLimit` asks a child.
 */
function readProcLimits(): string {
  if (Deno.build.os !== "linux") throw new Error("no /proc/self/limits");
  return Deno.readTextFileSync("/proc/self/limits");
}

const PRINT_LIMITS = 'Deno.stdout.writeSync(Deno.readFileSync("/proc/self/limits"))';

let reading: Promise<number> | undefined;

/**
 * The open-file limit, read once per process: from /proc/self/limits where the flags allow it,
 * else from a short-lived `deno eval` child (the hub may run `deno`), which inherits our limits
 * and prints its own. The child takes about 30 ms, without blocking: `hub start` asks for the
 * limit before it loads the server's modules (cli/start_args.ts), and it is known by the time the
 * hub listens.
 */
export function readOpenFileLimit(): Promise<number> {
  reading ??= (async () => {
    let text: string;
    try {
      text = readProcLimits();
    } catch (error) {
      const denied = error instanceof Deno.errors.NotCapable ||
        error instanceof Deno.errors.PermissionDenied;
      text = denied ? await readLimitsInChild().catch(() => "") : "";
    }
    return openFileLimit(() => text);
  })();
  return reading;
}

async function readLimitsInChild(): Promise<string> {
  if (Deno.build.standalone) throw new Error("a compiled hub cannot run deno eval");
  const allowed = (command: string) =>
    Deno.permissions.querySync({ name: "run", command }).state === "granted";
  // The scoped flags name "deno", which may resolve to another path than this binary (a symlink).
  const exec = allowed(Deno.execPath()) ? Deno.execPath() : allowed("deno") ? "deno" : undefined;
  if (!exec) throw new Error("may not run deno");
  const out = await new Deno.Command(exec, {
    args: ["eval", "--quiet", "--no-config", "-A", PRINT_LIMITS],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) throw new Error("deno eval failed");
  return new TextDecoder().decode(out.stdout);
}
