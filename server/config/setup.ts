/** First-run setup of the config directory: folder, `config.json` and the secret. */
import type { HubPaths } from "./paths.ts";
import { createConfigStore } from "./config_store.ts";
import { ensureSecret } from "./secret.ts";
import type { HubConfig } from "./schema.ts";

export interface SetupResult {
  createdConfig: boolean;
  createdSecret: boolean;
  secret: string;
  config: HubConfig;
}

/**
 * Creates whatever is missing; touches nothing that exists. A broken `config.json` makes this
 * throw (ConfigError) instead of being replaced.
 */
export async function setupConfigDir(
  paths: HubPaths,
  onWarning?: (message: string) => void,
): Promise<SetupResult> {
  await Deno.mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const store = createConfigStore(paths.config, { onWarning });
  const createdConfig = await store.ensure(); // throws on a broken file, writing nothing
  const config = await store.load();
  const { secret, created } = await ensureSecret(paths.auth);
  return { createdConfig, createdSecret: created, secret, config };
}
