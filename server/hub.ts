/**
 * Assembles a hub from its parts: config store, secret, state and routes. It holds no globals;
 * everything it depends on comes in through `HubOptions`, so tests build one on a temp dir.
 */
import type { HubPaths } from "./config/paths.ts";
import { createConfigStore } from "./config/config_store.ts";
import type { HubConfig } from "./config/schema.ts";
import { readSecret } from "./config/secret.ts";
import type { Logger } from "./log/logger.ts";
import { createHandler, type Handler } from "./http/handler.ts";
import { HttpError } from "./http/http_error.ts";
import { buildHealth, emptyAuditSummary } from "./health.ts";
import { createRoutes } from "./routes.ts";

export interface HubOptions {
  paths: HubPaths;
  logger: Logger;
  mode: "dev" | "production";
  skipPermissions: boolean;
  clock?: () => number;
}

export interface Hub {
  handler: Handler;
  /** Tells the hub the port it listens on (known only after binding, e.g. with port 0). */
  setPort(port: number): void;
  config(): HubConfig;
  /** Re-reads config and secret (and, later, plugins). */
  reload(): Promise<{ plugins: number; durationMs: number }>;
}

export async function createHub(options: HubOptions): Promise<Hub> {
  const { paths, logger } = options;
  const clock = options.clock ?? Date.now;
  const store = createConfigStore(paths.config, { onWarning: (m) => logger.warn(m) });
  let config = await store.load();
  let secret = await readSecret(paths.auth);
  let port = 0;
  const startedAt = clock();
  const reloads = { count: 0, lastTimestamp: 0, lastDurationMs: 0 };

  async function reload() {
    const started = clock();
    try {
      config = await store.load();
      secret = await readSecret(paths.auth);
    } catch (error) {
      logger.error(`Reload failed: ${(error as Error).message}`);
      throw new HttpError(500, "RELOAD_FAILED", (error as Error).message);
    }
    const durationMs = clock() - started;
    Object.assign(reloads, {
      count: reloads.count + 1,
      lastTimestamp: clock(),
      lastDurationMs: durationMs,
    });
    logger.info(`Reloaded configuration in ${durationMs} ms`);
    return { plugins: 0, durationMs };
  }

  const routes = createRoutes({
    health: () =>
      buildHealth({
        mode: options.mode,
        startedAt,
        now: clock(),
        skipPermissions: options.skipPermissions,
        extensionConnections: 0,
        mcpClients: 0,
        plugins: [],
        failedPlugins: [],
        discoveryErrors: [],
        browserToolNames: [],
        disabledBrowserTools: [],
        reloads: { ...reloads },
        fileWatcher: { watchedPlugins: 0, pendingPlugins: 0, lastPollAt: null, pollDetections: 0 },
        audit: emptyAuditSummary(),
      }),
    wsUrl: () => `ws://127.0.0.1:${port}/ws`,
    reload,
  });

  return {
    handler: createHandler({ routes, secret: () => secret, logger, clock }),
    setPort: (p) => (port = p),
    config: () => config,
    reload,
  };
}
