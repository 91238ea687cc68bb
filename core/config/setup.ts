/**
 * First-run setup of the config directory: folder, `config.json` and the secret. On every start it
 * also refuses unsafe permissions and removes the temp files of writers that were killed.
 */
import type { HubPaths } from "./paths.ts";
import { createConfigStore } from "./config_store.ts";
import { ensureSecret } from "./secret.ts";
import type { HubConfig } from "./schema.ts";
import { checkFileModes } from "./file_modes.ts";
import { removeOrphanTempFiles } from "../files/atomic_write.ts";

export interface SetupResult {
  createdConfig: boolean;
  createdSecret: boolean;
  secret: string;
  config: HubConfig;
}

/**
 * Creates whatever is missing; touches nothing that exists. A broken `config.json` makes this
 * throw (a `configError`) instead of being replaced, and so does a config dir or `auth.json` other
 * users can reach (an UNSAFE_MODE user error, with the chmod that fixes it).
 */
export async function setupConfigDir(
  paths: HubPaths,
  onWarning?: (message: string) => void,
): Promise<SetupResult> {
  await Deno.mkdir(paths.dir, { recursive: true, mode: 0o700 });
  await checkFileModes(paths, onWarning);
  await removeOrphanTempFiles(paths.dir);
  await removeOrphanTempFiles(paths.extensionDir);
  const store = createConfigStore(paths.config, { onWarning });
  // Throws on a broken file, writing nothing.
  const { created: createdConfig, config } = await store.ensure();
  const { secret, created } = await ensureSecret(paths.auth);
  return { createdConfig, createdSecret: created, secret, config };
}
