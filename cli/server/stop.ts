/**
 * `hub stop [--port]`: stops this config dir's hub started with `--background`. It signals the pid
 * in `server.pid` only once that pid is proven to be this config dir's hub (see pid_check.ts); a
 * stale file is removed, and a process that cannot be proven is never signalled.
 */
import { setTimeout as delay } from "node:timers/promises";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient, cliPaths } from "../../core/client/client_context.ts";
import { isAlive, readPidFile, sendTerm } from "./pid_file.ts";
import { checkPidFile } from "./pid_check.ts";
import type { HubPaths } from "../../core/config/paths.ts";

const STOP_WAIT_MS = 5_000;

export async function stopCommand(options: { port?: string }): Promise<void> {
  const paths = cliPaths();
  const file = await readPidFile(paths.pidFile);
  if (file !== undefined) {
    const check = await checkPidFile(paths, file);
    if (check.verdict === "ours") return await stopHub(paths, check.pid);
    if (check.verdict === "unverifiable") {
      throw new UserError(`Not stopping anything: ${check.reason}`);
    }
    await Deno.remove(paths.pidFile).catch(() => {});
    console.log(
      `${paths.pidFile} was stale: ${check.reason} Removed the stale file; nothing was signalled.`,
    );
  }
  const client = await cliClient(options.port, paths);
  if (await client.isUp()) {
    throw new UserError(
      `A hub is running on port ${client.port}, but it was not started with "hub start ` +
        `--background" from this config dir (no valid ${paths.pidFile}), so "hub stop" cannot ` +
        `stop it. Press Ctrl+C in the terminal where it runs.`,
    );
  }
  console.log(`No hub is running on port ${client.port}; nothing to stop.`);
}

async function stopHub(paths: HubPaths, pid: number): Promise<void> {
  await sendTerm(pid);
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) {
      await Deno.remove(paths.pidFile).catch(() => {});
      console.log(`Stopped hub (pid ${pid}).`);
      return;
    }
    await delay(100);
  }
  throw new UserError(
    `hub (pid ${pid}) did not stop within ${STOP_WAIT_MS / 1000} s. ` +
      `Force it with "kill -9 ${pid}", then delete ${paths.pidFile}.`,
  );
}
