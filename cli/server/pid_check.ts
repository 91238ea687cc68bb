/**
 * Decides whether the process `server.pid` names is this config dir's background hub, before
 * anything signals it. A pid alone proves nothing: the hub may have crashed and its pid been
 * reused, or the file may name another hub (another config dir, another port). So the record must
 * name this config dir, the process must have started at the recorded time, and the hub on the
 * recorded port must accept this config dir's secret and report that pid in its `/health`.
 */
import { clip } from "../../protocol/clip.ts";
import { resolve } from "node:path";
import type { HubPaths } from "../../core/config/paths.ts";
import { processState } from "../../core/process/process_identity.ts";
import { readSecret } from "../../core/config/secret.ts";
import { HubClient, UNPROVEN_HUB } from "../../core/client/hub_client.ts";
import { isUserError } from "../../core/cli/user_error.ts";
import { isHubServer, type PidFile, type PidRecord } from "./pid_file.ts";

/**
 * - `ours`: safe to signal.
 * - `stale`: names nothing that runs as this config dir's hub (dead, reused pid, another config
 *   dir, another hub): never signal; the file can go.
 * - `unverifiable`: a process runs that may be ours but cannot be proven to be: never signal; keep
 *   the file and tell the user how to stop it by hand.
 */
export type PidVerdict =
  | { verdict: "ours"; pid: number; port: number }
  | { verdict: "stale" | "unverifiable"; pid?: number; reason: string };

const HEALTH_TIMEOUT_MS = 3_000;

export async function checkPidFile(paths: HubPaths, file: PidFile): Promise<PidVerdict> {
  if (file.kind === "invalid") {
    return { verdict: "stale", reason: `${paths.pidFile} is not a pid file hub understands.` };
  }
  if (file.kind === "legacy") return await checkLegacy(paths, file.pid);
  return await checkRecord(paths, file.record);
}

/** A bare pid (earlier hub versions): proven stale if it is not a hub, otherwise unverifiable. */
async function checkLegacy(paths: HubPaths, pid: number): Promise<PidVerdict> {
  if ((await processState(pid)) === "dead" || !(await isHubServer(pid))) {
    return { verdict: "stale", pid, reason: `pid ${pid} is not a running hub server.` };
  }
  return {
    verdict: "unverifiable",
    pid,
    reason: `${paths.pidFile} is in the old format (a bare pid), so hub cannot check that pid ` +
      `${pid} is this config dir's hub.${byHand(paths, pid)}`,
  };
}

async function checkRecord(paths: HubPaths, record: PidRecord): Promise<PidVerdict> {
  const { pid } = record;
  if (!(await sameDir(record.configDir, paths.dir))) {
    return {
      verdict: "stale",
      pid,
      reason: `it names the hub of another config dir (${bounded(record.configDir)}).`,
    };
  }
  const state = record.startTime === undefined
    ? "unknown"
    : await processState(pid, record.startTime);
  if (state === "dead") {
    return { verdict: "stale", pid, reason: `the hub it names (pid ${pid}) is no longer running.` };
  }
  if (state === "unknown") {
    return {
      verdict: "unverifiable",
      pid,
      reason: `hub cannot look up when pid ${pid} started (no "ps" on this system?), so it ` +
        `cannot check that it is this config dir's hub.${byHand(paths, pid)}`,
    };
  }
  return await askHub(paths, record);
}

/** Asks the hub on the recorded port, with this config dir's secret, for its pid. */
async function askHub(paths: HubPaths, { pid, port }: PidRecord): Promise<PidVerdict> {
  const secret = await readSecret(paths.auth).catch(() => undefined);
  const unverifiable = (why: string): PidVerdict => ({
    verdict: "unverifiable",
    pid,
    reason: `pid ${pid} runs, but ${why}, so hub cannot check that it is this config dir's ` +
      `hub.${byHand(paths, pid)}`,
  });
  if (secret === undefined) return unverifiable(`${paths.auth} holds no usable secret`);
  let res;
  try {
    res = await new HubClient(port, secret).request<{ pid?: unknown }>("GET", "/health", {
      timeoutMs: HEALTH_TIMEOUT_MS,
    });
  } catch (error) {
    if (!isUserError(error, UNPROVEN_HUB)) res = undefined;
    else res = { status: 401, body: {} };
  }
  if (res === undefined) return unverifiable(`no hub answers on its port ${port}`);
  if (res.status === 401) {
    return {
      verdict: "stale",
      pid,
      reason: `the server on port ${port} does not know this config dir's secret: ` +
        `it is another hub.`,
    };
  }
  const reported = res.status === 200 ? res.body?.pid : undefined;
  if (reported === pid) return { verdict: "ours", pid, port };
  if (typeof reported === "number") {
    return {
      verdict: "stale",
      pid,
      reason: `this config dir's hub on port ${port} is pid ${reported}, not ${pid}.`,
    };
  }
  return unverifiable(`the server on port ${port} does not report its pid`);
}

function byHand(paths: HubPaths, pid: number): string {
  return ` If "ps -o args= -p ${pid}" shows the hub you mean to stop, stop it with ` +
    `"kill ${pid}" and delete ${paths.pidFile}.`;
}

/** Whether two paths name one folder (symlinks resolved when both exist). */
async function sameDir(a: string, b: string): Promise<boolean> {
  const real = (path: string) => Deno.realPath(path).catch(() => resolve(path));
  return (await real(a)) === (await real(b));
}

function bounded(text: string): string {
  return clip(text, 201);
}
