/** `hub start [--port] [--background] [--show-config]`. */
import { setupConfigDir } from "../../core/config/setup.ts";
import { cliPaths, warn } from "../../core/client/client_context.ts";
import { DEFAULT_PORT, resolveServerPort } from "../../core/config/port.ts";
import { parseLogLevel } from "../../core/config/log_level.ts";
import { firstRunText, mcpClientConfig } from "./setup_text.ts";
import { telemetryNotice } from "../../core/telemetry/notice.ts";
import { telemetryDecision, telemetryEnv } from "../../core/telemetry/decision.ts";
import { readInstallationId } from "../../core/telemetry/installation_id.ts";

/** What `runStart` (start_args.ts) passes on: its StartArgs without the stdio bridge's options. */
export interface StartOptions {
  port?: string;
  background?: boolean;
  showConfig?: boolean;
  /** Dev mode (file watchers, hot reload); HUB_DEV=1 does the same. */
  dev?: boolean;
}

export async function startCommand(options: StartOptions): Promise<void> {
  const paths = cliPaths();
  const level = parseLogLevel(Deno.env.get("HUB_LOG_LEVEL")); // a typo fails before any write
  const isChild = Deno.env.get("HUB_BACKGROUND") === "1";
  const setup = await setupConfigDir(paths, isChild ? undefined : warn);
  const port = resolveServerPort({
    flag: options.port,
    env: (n) => Deno.env.get(n),
    configPort: setup.config.port,
  });
  if (options.showConfig) {
    console.log(mcpClientConfig(port || DEFAULT_PORT, setup.secret));
    return;
  }
  const telemetry = telemetryDecision(
    setup.config.telemetry,
    telemetryEnv((n) => Deno.env.get(n)),
  );
  // No installation id yet: this start is the first that sends (also after an upgrade from a
  // version without telemetry), so the person is told, not only on a fresh config.
  const firstSend = !isChild && telemetry.enabled &&
    (await readInstallationId(paths.dir).catch(() => undefined)) === undefined;
  const welcome = (listening: number) => {
    if (setup.createdConfig && !isChild) {
      console.log(firstRunText(paths, setup.createdSecret, telemetry));
      console.log(mcpClientConfig(listening, setup.secret) + "\n");
    } else if (firstSend) {
      console.log(telemetryNotice(telemetry).join("\n") + "\n");
    }
  };
  if (options.background) {
    welcome(port);
    const { startInBackground } = await import("./background.ts");
    const pid = await startInBackground(paths, port, options.dev === true);
    console.log(
      `hub started in the background (pid ${pid}) on http://127.0.0.1:${port}\n` +
        `Logs: ${paths.serverLog}  ("hub logs -f")\nStop it with "hub stop".`,
    );
    return;
  }
  // Only a hub that serves in this process loads the server (not --background, --show-config).
  const { runServer } = await import("./run_server.ts");
  await runServer({
    paths,
    port,
    level,
    background: isChild,
    onListening: welcome,
    dev: options.dev,
  });
}
