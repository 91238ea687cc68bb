/**
 * `server.pid` of a hub started with `--background`, and checks on the process it names. Signals
 * and process lookups use the system `kill` and `ps`, because Deno.kill and reading /proc need
 * unscoped permissions.
 */
import { writeFileAtomic } from "../server/config/atomic_write.ts";
import { UserError } from "../server/user_error.ts";

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
  let result: Deno.CommandOutput;
  try {
    result = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).output();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new UserError(
      `hub needs the "${command}" command to manage a background hub, and it is not on the ` +
        `PATH. Install it (Debian/Ubuntu: "apt-get install procps").`,
    );
  }
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
