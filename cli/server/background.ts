/** `hub start --background`: starts the server as a detached child and returns once it answers. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HubPaths } from "../../core/config/paths.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { denoCommand } from "../../core/process/deno_command.ts";
import { HubClient } from "../../core/client/hub_client.ts";
import { HUB_PERMISSION_FLAGS } from "./deno_permissions.ts";
import { pidOf, readPidFile } from "./pid_file.ts";
import { checkPidFile } from "./pid_check.ts";
import { setTimeout as delay } from "node:timers/promises";
import { readLogTail } from "../logs/logs.ts";

const STARTUP_TIMEOUT_MS = 15_000;

/** Where `main.ts` and its `deno.json` live, to re-run the same program in a child process. */
const PROGRAM_DIR = join(import.meta.dirname ?? ".", "../..");

/** The command line that runs `hub start` again: the compiled binary, or deno with our flags. */
export function selfCommand(args: string[]): { command: string; args: string[] } {
  if (Deno.build.standalone) return { command: Deno.execPath(), args };
  const main = Deno.mainModule.startsWith("file:")
    ? fileURLToPath(Deno.mainModule)
    : join(PROGRAM_DIR, "main.ts");
  return {
    command: denoCommand() ?? "deno", // not allowed: the spawn fails and says so
    args: [
      "run",
      "--quiet",
      `--config=${join(PROGRAM_DIR, "deno.json")}`,
      ...HUB_PERMISSION_FLAGS,
      main,
      ...args,
    ],
  };
}

export async function startInBackground(
  paths: HubPaths,
  port: number,
  dev = false,
): Promise<number> {
  if (port === 0) {
    throw new UserError('"hub start --background" needs a fixed port; choose one with --port.');
  }
  const client = new HubClient(port, undefined);
  if (await client.isUp()) {
    throw new UserError(`A hub is already running on port ${port} ("hub status" shows it).`);
  }
  const file = await readPidFile(paths.pidFile);
  const running = file && await checkPidFile(paths, file);
  if (running && running.verdict !== "stale") {
    throw new UserError(
      `A background hub from this config dir is already running (pid ${running.pid}, see ` +
        `${paths.pidFile}). Stop it first with "hub stop".`,
    );
  }
  const child = spawnDetached(paths, port, dev);
  let exited: Deno.CommandStatus | undefined;
  child.status.then((status) => (exited = status));

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) {
      throw new UserError(
        `The background hub exited during startup (code ${exited.code}). ` +
          `Last lines of ${paths.serverLog}:\n${await lastLogLines(paths.serverLog, 5)}`,
      );
    }
    if (await client.isUp(500) && pidOf(await readPidFile(paths.pidFile)) === child.pid) {
      child.unref();
      return child.pid;
    }
    await delay(100);
  }
  try {
    child.kill("SIGTERM");
  } catch {
    // already gone
  }
  throw new UserError(
    `The background hub did not answer on port ${port} within ${STARTUP_TIMEOUT_MS / 1000} s. ` +
      `See ${paths.serverLog}.`,
  );
}

function spawnDetached(paths: HubPaths, port: number, dev: boolean): Deno.ChildProcess {
  const { command, args } = selfCommand([
    "start",
    "--port",
    String(port),
    ...(dev ? ["--dev"] : []),
  ]);
  try {
    return new Deno.Command(command, {
      args,
      env: { HUB_BACKGROUND: "1", HUB_CONFIG_DIR: paths.dir },
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (error) {
    throw new UserError(
      `Cannot start the background hub (${command}: ${(error as Error).message}). ` +
        `Put deno on your PATH ("npm i -g deno"), or run "hub start" in the foreground ` +
        `(for example under nohup or a service manager).`,
    );
  }
}

/** The log's last `lines` lines, or "(no log)" when it cannot be read. */
export async function lastLogLines(path: string, lines: number): Promise<string> {
  try {
    // Bounded: a FIFO or /dev/zero as the log is refused, never read.
    const { text } = await readLogTail(path);
    return text.trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
