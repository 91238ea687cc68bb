/** `hub stop [--port]`: stops a hub started with `--background`. */
import { setTimeout as delay } from "node:timers/promises";
import { CliError } from "./cli_error.ts";
import { cliClient, cliPaths } from "./context.ts";
import { isAlive, isHubServer, readPidFile, sendTerm } from "./pid_file.ts";

const STOP_WAIT_MS = 5_000;

export async function stopCommand(options: { port?: string }): Promise<void> {
  const paths = cliPaths();
  const pid = await readPidFile(paths.pidFile);
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
  if (!(await isHubServer(pid))) {
    await Deno.remove(paths.pidFile).catch(() => {});
    console.log(
      `No hub is running: ${paths.pidFile} named pid ${pid}, which is not a hub server. ` +
        `Removed the stale file; nothing was stopped.`,
    );
    return;
  }
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
  throw new CliError(
    `hub (pid ${pid}) did not stop within ${STOP_WAIT_MS / 1000} s. ` +
      `Force it with "kill -9 ${pid}", then delete ${paths.pidFile}.`,
  );
}
