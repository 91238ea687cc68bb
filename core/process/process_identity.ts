/**
 * Who a process is: its pid plus its start time, which together name one process even after the
 * pid is reused. The start time comes from `ps -o lstart=` (in UTC, C locale), because reading
 * `/proc` and `Deno.kill` need unscoped Deno permissions while hub may run `ps`. Where `ps` is
 * missing or not allowed (Windows, minimal containers), identities are "unknown" and callers fall
 * back to a slower rule.
 */

/** `alive`: the pid runs and, if a start time was given, started then. `unknown`: cannot tell. */
export type ProcessState = "alive" | "dead" | "unknown";

const PS_TIMEOUT_MS = 5_000;

/**
 * The start time of `pid` as an opaque string, `null` when no such process runs (or it is a
 * zombie), `undefined` when it cannot be told.
 */
export async function processStartTime(pid: number): Promise<string | null | undefined> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (Deno.build.os === "windows" || !mayRunPs()) return undefined;
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("ps", {
      args: ["-o", "stat=", "-o", "lstart=", "-p", String(pid)],
      env: { TZ: "UTC", LC_ALL: "C" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(PS_TIMEOUT_MS),
    }).output();
  } catch {
    return undefined; // no ps, not allowed to run it, or it hung
  }
  const line = new TextDecoder().decode(output.stdout).trim();
  if (!output.success || line === "") {
    // procps and BSD ps exit 1 in silence for "no such process"; anything else is not an answer
    // (a ps without these options must never make a live process look dead).
    return output.code === 1 && line === "" && output.stderr.length === 0 ? null : undefined;
  }
  const [stat, ...start] = line.split(/\s+/);
  if (stat.startsWith("Z")) return null; // exited, not yet reaped
  return start.length > 0 ? start.join(" ") : undefined;
}

let ownStartTime: Promise<string | undefined> | undefined;

/** This process's start time (looked up once). */
export function currentStartTime(): Promise<string | undefined> {
  ownStartTime ??= processStartTime(Deno.pid).then((t) => t ?? undefined);
  return ownStartTime;
}

/** Whether `pid` still runs and, when `startTime` is given, is the process that started then. */
export async function processState(pid: number, startTime?: string): Promise<ProcessState> {
  const actual = await processStartTime(pid);
  if (actual === null) return "dead";
  if (actual === undefined) return "unknown";
  if (startTime === undefined) return "alive";
  return actual === startTime ? "alive" : "dead"; // a different process reuses the pid
}

/** Whether `ps` may run without a permission prompt (hub's own flags allow it). */
function mayRunPs(): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command: "ps" }).state === "granted";
  } catch {
    return false;
  }
}
