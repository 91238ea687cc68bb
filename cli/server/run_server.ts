/** Runs the hub server in this process until SIGINT or SIGTERM. */
import type { HubPaths } from "../../core/config/paths.ts";
import { removeOwnPidFile, writePidFile } from "./pid_file.ts";
import {
  connectionCap,
  createHub,
  createLogger,
  installExtension,
  listen,
  type Logger,
  startMemorySettle,
} from "../../server/mod.ts";
import { VERSION } from "../../protocol/version.ts";
import type { LogLevel } from "../../core/config/log_level.ts";
import { FALLBACK_OPEN_FILE_LIMIT, readOpenFileLimit } from "../../core/process/open_file_limit.ts";
import { telemetrySettingsFromEnv } from "../../core/telemetry/settings.ts";

export interface RunServerOptions {
  paths: HubPaths;
  port: number;
  /** From HUB_LOG_LEVEL, checked by `hub start` before anything is written. */
  level: LogLevel;
  /** Detached child of `hub start --background`: no terminal, owns the PID file. */
  background: boolean;
  /** Called once the server listens, with the real port (known only then for port 0). */
  onListening?: (port: number) => void;
  /** `--dev`; HUB_DEV=1 turns dev mode on as well. */
  dev?: boolean;
}

const SHUTDOWN_DEADLINE_MS = 5_000;

export async function runServer(options: RunServerOptions): Promise<void> {
  const { paths } = options;
  const logger = createLogger({
    level: options.level,
    file: paths.serverLog,
    terminal: !options.background,
  });
  // Pages decide what plugins log: their lines go to a file of their own, so a flood of them
  // never rotates the hub's own history out of server.log.
  const pluginLogger = createLogger({
    level: options.level,
    file: paths.pluginsLog,
    terminal: !options.background,
  });
  const mode = options.dev || Deno.env.get("HUB_DEV") === "1" ? "dev" : "production";
  const skipPermissions = Deno.env.get("HUB_DANGEROUSLY_SKIP_PERMISSIONS") === "1";
  let hub;
  let server;
  try {
    hub = createHub({
      paths,
      logger,
      pluginLogger,
      mode,
      skipPermissions,
      skipPackageDiscovery: Deno.env.get("HUB_SKIP_PKG_DISCOVERY") === "1",
      telemetry: telemetrySettingsFromEnv((name) => Deno.env.get(name)),
    });
    const trusted = hub;
    server = listen(hub.handler, options.port, logger, {
      socketDir: paths.dir,
      // The cap for the smallest common limit until the real one is read, after the start.
      maxConnections: connectionCap(FALLBACK_OPEN_FILE_LIMIT),
      isTrusted: (authorization, wsProtocol) => trusted.isAuthorized(authorization, wsProtocol),
    });
  } catch (error) {
    // The terminal gets the message from the CLI; a background start reads it from the log.
    if (options.background) logger.error((error as Error).message);
    throw error;
  }
  hub.setPort(server.port);
  // After a burst of large messages, gives the garbage back instead of holding it for half a minute.
  const memory = startMemorySettle({ logger });
  await installBrowserExtension(paths, server.port, logger);
  await hub.ready.catch(() => {}); // logged by the hub; the server runs without plugins then
  if (options.background) await writePidFile(paths, server.port);
  // Resolves once shutdown is complete, so the process exits only after cleanup and logging.
  // Listened for before "listening on" is printed, when scripts start sending signals (until
  // then a signal ends the process); nothing below awaits before the listeners are there.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info(`Received ${signal}; shutting down`);
      // Open MCP streams and the extension socket would keep the server from finishing.
      memory.stop();
      await hub.close();
      await server.shutdown(SHUTDOWN_DEADLINE_MS);
      if (options.background) await removeOwnPidFile(paths.pidFile);
      logger.info("Stopped");
      resolve();
    };
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => void stop(signal));
    }
  });
  options.onListening?.(server.port);
  logger.info(
    `hub ${VERSION} listening on http://127.0.0.1:${server.port} ` +
      `(${mode} mode, config ${paths.dir}${skipPermissions ? ", SKIPPING PERMISSIONS" : ""})`,
  );
  // Under the scoped flags a `deno eval` child reads the limit (core/process/open_file_limit.ts); asked
  // for only now, it does not compete with the start (plugin loading included) for the CPU.
  void readOpenFileLimit().then((limit) => server.setMaxConnections(connectionCap(limit)));
  hub.preload().catch((error) =>
    logger.warn(`Could not load part of hub's code: ${(error as Error).message}`)
  );
  await stopped;
}

/** Puts the extension where the user loads it from, and says so when it changed. */
async function installBrowserExtension(paths: HubPaths, port: number, logger: Logger) {
  try {
    const result = await installExtension(paths.extensionDir, port);
    if (result.action === "installed") {
      logger.info(`Installed the browser extension in ${paths.extensionDir}`);
    } else if (result.action === "updated") {
      logger.info(
        `Updated the browser extension in ${paths.extensionDir} ` +
          `(${result.previousVersion ?? "unknown"} → ${result.version}); reload it in ` +
          "chrome://extensions if it does not reload by itself.",
      );
    }
  } catch (error) {
    logger.error((error as Error).message);
  }
}
