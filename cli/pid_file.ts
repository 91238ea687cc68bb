/**
 * `server.pid` of a hub started with `--background`, and checks on the process it names. Signals
 * and process lookups use the system `kill` and `ps`, because Deno.kill and reading /proc need
 * unscoped permissions.
 */
import { writeFileAtomic } from "../server/config/atomic_write.ts";

export async function readPidFile(path: string): Promise<number | undefined> {
  try {
    const text = (await Deno.readTextFile(path)).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function writePidFile(path: string, pid: number = Deno.pid): Promise<void> {
  await writeFileAtomic(path, `${pid}\n`, { mode: 0o600 });
}

/** Removes the PID file only if it still names this process. */
export async function removeOwnPidFile(path: string): Promise<void> {
  if ((await readPidFile(path)) === Deno.pid) await Deno.remove(path).catch(() => {});
}

async function run(command: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const result = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" })
    .output();
  return { ok: result.success, out: new TextDecoder().decode(result.stdout) };
}

export async function sendTerm(pid: number): Promise<boolean> {
  return (await run("kill", ["-TERM", String(pid)])).ok;
}

export async function isAlive(pid: number): Promise<boolean> {
  return (await run("kill", ["-0", String(pid)])).ok;
}

/** True when `pid` is alive and its command line is a `hub start` (not a recycled pid). */
export async function isHubServer(pid: number): Promise<boolean> {
  const { ok, out } = await run("ps", ["-o", "args=", "-p", String(pid)]);
  return ok && /\bstart\b/.test(out) && /(main\.ts|hub)\b/.test(out);
}
