/**
 * The checks that ask the running hub: `/health` within 3 s through the hub client (which has the
 * process on the port prove it knows the secret before sending it, so a stranger on the port gets
 * a clear error and never the secret), the hub's version against the CLI's, and whether the
 * extension is connected.
 */
import { HubClient, UNPROVEN_HUB } from "../../core/client/hub_client.ts";
import { isUserError, UserError } from "../../core/cli/user_error.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import { clip } from "../../protocol/clip.ts";
import { type Check, pass, problem, skip } from "./report.ts";

export const HEALTH_TIMEOUT_MS = 3_000;
export const NOT_RUNNING = "skipped (hub is not running)";
const NO_ANSWER = "skipped (no answer from a hub on the port)";

export interface HealthOutcome {
  check: Check;
  /** The payload when the hub answered. */
  health?: HealthPayload;
  /** Why the checks that need the hub are skipped, when they are. */
  skipReason?: string;
}

const ID = "server", TITLE = "server health";

/** Asks `/health`; without a valid secret it can only tell whether something listens. */
export async function healthCheck(
  port: number,
  secret: string | undefined,
  cliVersion: string,
): Promise<HealthOutcome> {
  const client = new HubClient(port, secret);
  if (secret === undefined) {
    const up = await client.isUp(HEALTH_TIMEOUT_MS);
    return {
      check: up
        ? skip(
          ID,
          TITLE,
          `something answers on port ${port}, but there is no valid secret to check it with`,
        )
        : problem("error", ID, TITLE, `hub is not running on port ${port}`, "hub start"),
      skipReason: up ? "skipped (no valid secret)" : NOT_RUNNING,
    };
  }
  let health: HealthPayload | undefined;
  try {
    health = await client.health(HEALTH_TIMEOUT_MS, { oneDeadline: true });
  } catch (error) {
    const message = error instanceof UserError
      ? error.message
      : `/health on port ${port} failed: ${(error as Error).message}`;
    const fix = isUserError(error, UNPROVEN_HUB)
      ? `lsof -i :${port} (find the program on the port; stop it or run hub on another port)`
      : "hub stop && hub start";
    return { check: problem("error", ID, TITLE, clip(message, 900), fix), skipReason: NO_ANSWER };
  }
  if (!health) {
    return {
      check: problem("error", ID, TITLE, `hub is not running on port ${port}`, "hub start"),
    };
  }
  if (health.version !== cliVersion) {
    return {
      check: problem(
        "warn",
        ID,
        TITLE,
        `hub ${
          clip(String(health.version), 40)
        } runs on port ${port}, but this CLI is ${cliVersion}`,
        "restart the hub: hub stop && hub start",
      ),
      health,
    };
  }
  return { check: pass(ID, TITLE, `hub ${health.version} answers on port ${port}`), health };
}

export function extensionConnectedCheck(
  health: HealthPayload | undefined,
  extensionDir: string,
  skipReason = NOT_RUNNING,
): Check {
  const id = "extension_connected", title = "extension connected";
  if (!health) return skip(id, title, skipReason);
  if (health.extensionConnected) {
    return pass(id, title, `connected (${health.extensionConnections} connection(s))`);
  }
  return problem(
    "error",
    id,
    title,
    "no browser extension is connected to the hub",
    `open Chromium with the hub extension loaded (chrome://extensions → Developer mode → ` +
      `"Load unpacked" → ${clip(extensionDir, 200)})`,
  );
}
