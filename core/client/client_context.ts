/** What every command needs: the config dir's paths, the config, the port and a client. */
import { createConfigStore } from "../config/config_store.ts";
import { type HubPaths, hubPaths } from "../config/paths.ts";
import { readSecret } from "../config/secret.ts";
import { isUserError, UserError } from "../cli/user_error.ts";
import { HubClient, UNPROVEN_HUB } from "./hub_client.ts";
import { resolveCliPort } from "../config/port.ts";

export function warn(message: string): void {
  console.error(`warning: ${message}`);
}

export function cliPaths(): HubPaths {
  return hubPaths();
}

export function cliConfigStore(paths: HubPaths = cliPaths()) {
  return createConfigStore(paths.config, { onWarning: warn });
}

/**
 * The port CLI commands talk to. The config file is read only when neither `--port` nor
 * `HUB_PORT` decides; if it is broken, the default port is used with a warning, so that the
 * commands that repair it (`config reset`, `config set`) and `status`/`stop` still work.
 */
export async function cliPort(flag: string | undefined, paths: HubPaths = cliPaths()) {
  const env = (n: string) => Deno.env.get(n);
  if (flag !== undefined || env("HUB_PORT")) return resolveCliPort({ flag, env });
  let configPort: number | undefined;
  try {
    configPort = (await createConfigStore(paths.config).load()).port;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    warn(`${error.message}\n(using the default port meanwhile)`);
  }
  return resolveCliPort({ env, configPort });
}

/** A client for the running hub; a broken auth.json means no secret (with a warning). */
export async function cliClient(flag: string | undefined, paths: HubPaths = cliPaths()) {
  let secret: string | undefined;
  try {
    secret = await readSecret(paths.auth);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    warn(error.message);
  }
  return new HubClient(await cliPort(flag, paths), secret);
}

/** Asks a running hub to reload its config; says so when it could not. Silent when none runs. */
export async function notifyHub(client: HubClient): Promise<void> {
  try {
    const res = await client.request("POST", "/reload");
    if (!res) return;
    if (res.status === 200) console.log(`The running hub on port ${client.port} has reloaded.`);
    else {
      warn(
        `The running hub on port ${client.port} could not reload now (HTTP ${res.status}); ` +
          `it picks up config changes by itself within a request or two.`,
      );
    }
  } catch (error) {
    if (isUserError(error, UNPROVEN_HUB)) throw error; // a stranger on the port: exit 1
    warn(`Could not notify the running hub: ${(error as Error).message}`);
  }
}

/**
 * The folder the user ran the command from. `deno task` runs commands in the project folder and
 * passes the user's folder as INIT_CWD.
 */
export function userCwd(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}
