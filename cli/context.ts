/** What every command needs: the config dir's paths, the config, the port and a client. */
import { createConfigStore } from "../server/config/config_store.ts";
import { type HubPaths, hubPaths } from "../server/config/paths.ts";
import type { HubConfig } from "../server/config/schema.ts";
import { readSecret } from "../server/config/secret.ts";
import { HubClient } from "./hub_client.ts";
import { resolveCliPort } from "./port.ts";

export function warn(message: string): void {
  console.error(`warning: ${message}`);
}

export function cliPaths(): HubPaths {
  return hubPaths();
}

export function cliConfigStore(paths: HubPaths = cliPaths()) {
  return createConfigStore(paths.config, { onWarning: warn });
}

export async function loadConfig(paths: HubPaths = cliPaths()): Promise<HubConfig> {
  return await cliConfigStore(paths).load();
}

export async function cliPort(flag: string | undefined, paths: HubPaths = cliPaths()) {
  const config = flag === undefined ? await loadConfig(paths) : undefined;
  return resolveCliPort({ flag, env: (n) => Deno.env.get(n), configPort: config?.port });
}

export async function cliClient(flag: string | undefined, paths: HubPaths = cliPaths()) {
  return new HubClient(await cliPort(flag, paths), await readSecret(paths.auth));
}

/** Asks a running hub to reload its config; says so when it could not. Silent when none runs. */
export async function notifyHub(client: HubClient): Promise<void> {
  try {
    const res = await client.request("POST", "/reload");
    if (!res) return;
    if (res.status === 200) console.log(`The running hub on port ${client.port} has reloaded.`);
    else {
      warn(
        `The running hub on port ${client.port} could not reload (HTTP ${res.status}); ` +
          `it picks the change up on its next reload or restart.`,
      );
    }
  } catch (error) {
    warn(`Could not notify the running hub: ${(error as Error).message}`);
  }
}
