/**
 * Why the extension is not connected, in words a person can act on. A browser WebSocket only
 * says "closed (1006)" whatever happened, so after a failed attempt the extension asks the hub
 * itself: nothing answering means the hub is not running; a process that does not prove it knows
 * the secret (protocol/challenge.ts), whatever it answered (a claim to have no secret included),
 * is another program on the port, or a hub of another setup, and is asked nothing more; only a
 * proven hub is asked for `/health` with the secret, and another version there means the
 * extension folder is stale.
 */
import { type LinkStatus, unprovenText } from "./connection.ts";
import type { HubAddress } from "./hub_files.ts";
import type { LinkProblem } from "../shared/panel_messages.ts";
import { proveHub } from "../../../protocol/challenge.ts";

export const HEALTH_TIMEOUT_MS = 2_000;

export interface DiagnosisDeps {
  extensionVersion: string;
  readAddress(): Promise<HubAddress>;
  fetch: typeof fetch;
}

const RELOAD_FIX = "Reload the hub extension at chrome://extensions. If that does not help, load " +
  'it unpacked from the "extension" folder beside the config file of the hub you run ' +
  '("hub config path" prints where that file is).';

/** The mismatch problem, or undefined when the versions agree. */
export function versionProblem(hubVersion: string, extensionVersion: string) {
  if (hubVersion === extensionVersion) return undefined;
  return {
    kind: "version_mismatch",
    message: `The hub is version ${hubVersion}, this extension is ${extensionVersion}.`,
    fix: RELOAD_FIX,
  } satisfies LinkProblem;
}

/** Asks the hub what is wrong with a link that did not open (or closed). */
export async function diagnose(
  status: LinkStatus,
  deps: DiagnosisDeps,
): Promise<LinkProblem | undefined> {
  if (status.state === "connected") return undefined;
  if (status.replaced) {
    return {
      kind: "replaced",
      message: "The hub extension of another browser profile is connected to the hub.",
      fix: "Connect this browser instead (the other profile then waits).",
    };
  }
  let address: HubAddress;
  try {
    address = await deps.readAddress();
  } catch (error) {
    return {
      kind: "not_set_up",
      message: `This extension folder is not set up: ${(error as Error).message}.`,
      fix: 'Run "hub start", then load the extension from the folder it prints.',
    };
  }
  return await askHealth(address, status, deps);
}

async function askHealth(
  address: HubAddress,
  status: LinkStatus,
  deps: DiagnosisDeps,
): Promise<LinkProblem> {
  const where = `127.0.0.1:${address.port}`;
  const get = (url: string, init: RequestInit) =>
    deps.fetch(url, { ...init, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS), cache: "no-store" });
  let response: Response;
  try {
    // Only a process that proved it knows the secret is asked anything more, and given it.
    const proof = await proveHub({ ...address, fetch: get });
    if (proof.kind !== "proven") return unprovenProblem(address.port, proof.reason);
    const headers = { authorization: `Bearer ${address.secret}` };
    response = await get(`http://${where}/health`, { headers });
  } catch {
    return {
      kind: "not_running",
      message: `The hub is not running: nothing answers on ${where}.`,
      fix: 'Start it with "hub start" (from the hub sources: "deno task start").',
    };
  }
  if (response.status === 401) {
    return {
      kind: "wrong_secret",
      message: `The hub on ${where} does not accept this extension's secret (auth.json).`,
      fix: "This extension folder belongs to another hub setup. " + RELOAD_FIX,
    };
  }
  const health = await response.json().catch(() => undefined) as { version?: unknown } | undefined;
  if (typeof health?.version === "string") {
    const mismatch = versionProblem(health.version, deps.extensionVersion);
    if (mismatch) return mismatch;
  }
  return {
    kind: "other",
    message: `The hub on ${where} is running but the connection failed` +
      (status.lastError ? ` (${status.lastError}).` : "."),
    fix: 'It retries every few seconds. If it keeps failing, see "hub logs" and "hub status".',
  };
}

function unprovenProblem(port: number, reason: string): LinkProblem {
  const text = unprovenText(port, reason);
  return {
    kind: "not_hub",
    message: `${text[0].toUpperCase()}${text.slice(1)}.`,
    fix: `Find that program ("lsof -i :${port}" or "ss -ltnp") and stop it, or start the hub on ` +
      'another port ("hub start --port <number>"). If it is a hub, it belongs to another setup ' +
      "or is older than this extension: " + RELOAD_FIX,
  };
}
