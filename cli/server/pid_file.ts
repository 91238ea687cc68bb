/**
 * `server.pid` of a hub started with `--background`: a JSON record of what `hub stop` needs to
 * make sure the pid still names *this* config dir's hub before it signals it (the process start
 * time, the port, the config dir). Signals and process lookups use the system `kill` and `ps`,
 * because Deno.kill and reading /proc need unscoped permissions.
 */
import { writeFileAtomic } from "../../core/files/atomic_write.ts";
import type { HubPaths } from "../../core/config/paths.ts";
import { currentStartTime } from "../../core/process/process_identity.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { VERSION } from "../../protocol/version.ts";
import { readBoundedText } from "../../core/files/bounded_read.ts";

export interface PidRecord {
  pid: number;
  /** As `ps -o lstart=` gives it (UTC); absent where it cannot be looked up. */
  startTime?: string;
  port: number;
  configDir: string;
  version: string;
}

/**
 * What `server.pid` holds: a record; a bare number (written by earlier hub versions, which
 * cannot be verified); or something else (`invalid`). Undefined when there is no file.
 */
export type PidFile =
  | { kind: "record"; record: PidRecord }
  | { kind: "legacy"; pid: number }
  | { kind: "invalid" };

const MAX_PID_FILE_BYTES = 4096;

export async function readPidFile(path: string): Promise<PidFile | undefined> {
  let text: string;
  try {
    // Bounded: a FIFO, a device or an oversized file there is refused, never read.
    text = (await readBoundedText(path, { maxBytes: MAX_PID_FILE_BYTES })).trim();
  } catch {
    return undefined;
  }
  if (/^\d{1,10}$/.test(text)) return { kind: "legacy", pid: Number(text) };
  const record = parseRecord(text);
  return record ? { kind: "record", record } : { kind: "invalid" };
}

function parseRecord(text: string): PidRecord | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { pid, startTime, port, configDir, version } = value ?? {};
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (!Number.isSafeInteger(port) || (port as number) <= 0 || (port as number) > 65535) {
    return undefined;
  }
  if (typeof configDir !== "string" || typeof version !== "string") return undefined;
  if (startTime !== undefined && typeof startTime !== "string") return undefined;
  return {
    pid: pid as number,
    startTime: startTime as string | undefined,
    port: port as number,
    configDir,
    version,
  };
}

/** The pid a `server.pid` names, whatever its format. */
export function pidOf(file: PidFile | undefined): number | undefined {
  if (file?.kind === "record") return file.record.pid;
  if (file?.kind === "legacy") return file.pid;
  return undefined;
}

/** Writes this process's record: called by the background server once it listens on `port`. */
export async function writePidFile(paths: HubPaths, port: number): Promise<void> {
  const record: PidRecord = {
    pid: Deno.pid,
    startTime: await currentStartTime(),
    port,
    configDir: paths.dir,
    version: VERSION,
  };
  await writeFileAtomic(paths.pidFile, JSON.stringify(record) + "\n", { mode: 0o600 });
}

/** Removes the PID file only if it still names this process. */
export async function removeOwnPidFile(path: string): Promise<void> {
  if (pidOf(await readPidFile(path)) === Deno.pid) await Deno.remove(path).catch(() => {});
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
