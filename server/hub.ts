/**
 * Assembles a hub from its parts: config store, secret, state and routes. It holds no globals;
 * everything it depends on comes in through `HubOptions`, so tests build one on a temp dir.
 */
import type { HubPaths } from "./config/paths.ts";
import { parseConfigText } from "./config/config_store.ts";
import type { HubConfig } from "./config/schema.ts";
import { parseSecret } from "./config/secret.ts";
import { liveFile } from "./config/live_file.ts";
import type { Logger } from "./log/logger.ts";
import { createHandler, type Handler } from "./http/handler.ts";
import { HttpError } from "./http/http_error.ts";
import { buildHealth, idleSubsystemFacts } from "./health.ts";
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
  /** The current config; follows changes to config.json (a broken edit keeps the last good one). */
  config(): HubConfig;
  /** Re-reads config and secret now (and, later, rediscovers plugins). */
  reload(): Promise<{ plugins: number; durationMs: number }>;
}

export function createHub(options: HubOptions): Hub {
  const { paths, logger } = options;
  const clock = options.clock ?? Date.now;
  const onError = (m: string) => logger.error(m);
  const config = liveFile(paths.config, (t) => parseConfigText(paths.config, t).config, onError);
  // The secret never goes back to "none": a deleted or broken auth.json keeps the last good one.
  const secret = liveFile(paths.auth, (t) => parseSecret(paths.auth, t), onError);
  let port = 0;
  const startedAt = clock();
  const reloads = { count: 0, lastTimestamp: 0, lastDurationMs: 0 };

  function reload() {
    const started = clock();
    try {
      config.refresh();
      secret.refresh();
    } catch (error) {
      logger.error(`Reload failed: ${(error as Error).message}`);
      return Promise.reject(new HttpError(500, "RELOAD_FAILED", (error as Error).message));
    }
    const durationMs = clock() - started;
    Object.assign(reloads, {
      count: reloads.count + 1,
      lastTimestamp: clock(),
      lastDurationMs: durationMs,
    });
    logger.info(`Reloaded configuration in ${durationMs} ms`);
    return Promise.resolve({ plugins: 0, durationMs });
  }

  const routes = createRoutes({
    // Extension link, MCP sessions, plugins, browser tools and audit do not exist in this
    // version yet, so they truly have nothing to report.
    health: () =>
      buildHealth({
        mode: options.mode,
        startedAt,
        now: clock(),
        skipPermissions: options.skipPermissions,
        reloads: { ...reloads },
        ...idleSubsystemFacts(),
      }),
    wsUrl: () => `ws://127.0.0.1:${port}/ws`,
    reload,
  });

  return {
    handler: createHandler({ routes, secret: () => secret.get(), logger, clock }),
    setPort: (p) => (port = p),
    config: () => config.get(),
    reload,
  };
}
