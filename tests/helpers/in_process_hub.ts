/** A hub built in this process on a temp config dir (no subprocess), for unit tests and benches. */
import { createHub, type Hub, type HubOptions } from "../../server/hub.ts";
import { type HubPaths, hubPaths } from "../../core/config/paths.ts";
import { setupConfigDir } from "../../core/config/setup.ts";
import { silentLogger } from "../../server/log/logger.ts";
import { listen } from "../../server/net/listen.ts";

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

export interface ServedHub extends InProcessHub {
  port: number;
  url: string;
  /** Closes sessions and the link, then the server. */
  stop(): Promise<void>;
}

/** An in-process hub listening on a free loopback port, for protocol and pipeline tests. */
export async function serveInProcessHub(
  dir: string,
  options: Partial<HubOptions> = {},
): Promise<ServedHub> {
  const built = await createInProcessHub(dir, options);
  const server = listen(built.hub.handler, 0, silentLogger, {
    isTrusted: (authorization, wsProtocol) => built.hub.isAuthorized(authorization, wsProtocol),
  });
  built.hub.setPort(server.port);
  return {
    ...built,
    port: server.port,
    url: `http://127.0.0.1:${server.port}`,
    async stop() {
      await built.hub.close();
      await server.shutdown(2_000);
    },
  };
}
