/** `hub start [--port] [--background] [--show-config]`. */
import { setupConfigDir } from "../server/config/setup.ts";
import { PortInUseError } from "../server/serve.ts";
import { CliError } from "./cli_error.ts";
import { cliPaths, loadConfig, warn } from "./context.ts";
import { resolveServerPort } from "./port.ts";
import { startInBackground } from "./background.ts";
import { runServer } from "./run_server.ts";
import { firstRunText, mcpClientConfig } from "./setup_text.ts";

export interface StartOptions {
  port?: string;
  background?: boolean;
  showConfig?: boolean;
}

export async function startCommand(options: StartOptions): Promise<void> {
  const paths = cliPaths();
  const setup = await setupConfigDir(paths, warn);
  const config = await loadConfig(paths);
  const port = resolveServerPort({
    flag: options.port,
    env: (n) => Deno.env.get(n),
    configPort: config.port,
  });
  const shownPort = port === 0 ? 9515 : port;

  if (options.showConfig) {
    console.log(mcpClientConfig(shownPort, setup.secret));
    return;
  }
  const background = options.background || Deno.env.get("HUB_BACKGROUND") === "1";
  if (setup.createdConfig && !background) {
    console.log(firstRunText(paths.config, paths.extensionDir));
    console.log(mcpClientConfig(shownPort, setup.secret));
    console.log("");
  }
  if (options.background) {
    const pid = await startInBackground(paths, port);
    console.log(
      `hub started in the background (pid ${pid}) on http://127.0.0.1:${port}\n` +
        `Logs: ${paths.serverLog}  ("hub logs -f")\nStop it with "hub stop".`,
    );
    return;
  }
  try {
    await runServer({ paths, port, background });
  } catch (error) {
    if (error instanceof PortInUseError) throw new CliError(error.message);
    throw error;
  }
}
