/** A hub built in this process on a temp config dir (no subprocess), for unit tests and benches. */
import { createHub, type Hub, type HubOptions } from "../../server/hub.ts";
import { type HubPaths, hubPaths } from "../../server/config/paths.ts";
import { setupConfigDir } from "../../server/config/setup.ts";
import { silentLogger } from "../../server/log/logger.ts";

export interface InProcessHub {
  paths: HubPaths;
  hub: Hub;
  secret: string;
}

/** Sets up `dir` like a first `hub start` and builds a production-mode hub on it. */
export async function createInProcessHub(
  dir: string,
  options: Partial<HubOptions> = {},
): Promise<InProcessHub> {
  const paths = hubPaths(dir);
  const { secret } = await setupConfigDir(paths);
  const hub = createHub({
    paths,
    logger: silentLogger,
    mode: "production",
    skipPermissions: false,
    skipPackageDiscovery: true,
    ...options,
  });
  await hub.ready;
  return { paths, hub, secret };
}
