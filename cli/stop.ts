/** `hub stop [--port]`: stops a hub started with `--background`. */
import { CliError } from "./cli_error.ts";
import { cliClient, cliPaths } from "./context.ts";

const STOP_WAIT_MS = 5_000;

export async function stopCommand(options: { port?: string }): Promise<void> {
  const paths = cliPaths();
  const pid = await readPid(paths.pidFile);
  if (pid === undefined) {
    const client = await cliClient(options.port, paths);
    if (await client.isUp()) {
      throw new CliError(
        `A hub is running on port ${client.port}, but it was not started with "hub start ` +
          `--background" (no ${paths.pidFile}), so "hub stop" cannot stop it. ` +
          `Press Ctrl+C in the terminal where it runs.`,
      );
    }
    console.log(`No hub is running on port ${client.port}; nothing to stop.`);
    return;
  }
  if (!(await isHubProcess(pid))) {
    await Deno.remove(paths.pidFile).catch(() => {});
    console.log(`No hub is running (removed the stale ${paths.pidFile} for pid ${pid}).`);
    return;
  }
  await signal(pid, "TERM");
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) {
      await Deno.remove(paths.pidFile).catch(() => {});
      console.log(`Stopped hub (pid ${pid}).`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new CliError(
    `hub (pid ${pid}) did not stop within ${STOP_WAIT_MS / 1000} s. ` +
      `Force it with "kill -9 ${pid}", then delete ${paths.pidFile}.`,
  );
}

async function readPid(path: string): Promise<number | undefined> {
  try {
    const text = (await Deno.readTextFile(path)).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends a signal with the system `kill` (Deno.kill would need unscoped run permission). */
async function signal(pid: number, name: "TERM" | "0"): Promise<boolean> {
  const args = name === "0" ? ["-0", String(pid)] : ["-TERM", String(pid)];
  const out = await new Deno.Command("kill", { args, stdout: "null", stderr: "null" }).output();
  return out.success;
}

function isAlive(pid: number): Promise<boolean> {
  return signal(pid, "0");
}

/** Alive, and (where /proc exists) really a hub server, not a recycled pid. */
async function isHubProcess(pid: number): Promise<boolean> {
  if (!(await isAlive(pid))) return false;
  try {
    const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`);
    return cmdline.split("\0").includes("start");
  } catch {
    return true; // no /proc (macOS): trust the PID file
  }
}
