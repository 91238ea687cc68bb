/**
 * Stopping a child process together with the processes it started (npm starts git, a shell for a
 * script...). Deno.kill and /proc need unscoped permissions while hub may run `ps` and `kill`, so
 * the tree is read from `ps -A -o pid=,ppid=` and signalled with `kill`. Where neither exists
 * (Windows) only the child itself is signalled. Never throws.
 */

/** How long `ps` or `kill` may take. */
const TOOL_TIMEOUT_MS = 3_000;

/** The pids of every live descendant of `pid` (children, their children...), nearest first. */
export async function descendantsOf(pid: number): Promise<number[]> {
  const table = await processTable();
  const children = new Map<number, number[]>();
  for (const [child, parent] of table) {
    children.set(parent, [...children.get(parent) ?? [], child]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && found.length < 10_000) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (child === pid || found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Pairs [pid, ppid] of every process; empty when `ps` cannot be run. */
export async function processTable(): Promise<[number, number][]> {
  const out = await runTool("ps", ["-A", "-o", "pid=,ppid="]);
  if (out === undefined) return [];
  return out.split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((pair): pair is [number, number] =>
      pair.length === 2 && Number.isInteger(pair[0]) && Number.isInteger(pair[1])
    );
}

/** Sends `signal` to `pids` with the `kill` program; pids that are gone are skipped by it. */
export async function signalAll(pids: number[], signal: "TERM" | "KILL"): Promise<void> {
  if (pids.length === 0) return;
  await runTool("kill", [`-${signal}`, ...pids.map(String)]);
}

/** Runs a small tool with a time limit; its stdout, or undefined when it could not run. */
async function runTool(program: string, args: string[]): Promise<string | undefined> {
  if (Deno.build.os === "windows") return undefined;
  try {
    const out = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(TOOL_TIMEOUT_MS),
    }).output();
    return new TextDecoder().decode(out.stdout);
  } catch {
    return undefined; // not installed, not permitted, or too slow
  }
}
