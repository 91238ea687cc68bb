/** `hub status [--port] [--json]` (also what plain `hub` runs). */
import type { HealthPayload } from "../../protocol/health.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient, cliPaths } from "../../core/client/client_context.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { printJson } from "../json_output.ts";

export async function statusCommand(options: { port?: string; json?: boolean }): Promise<void> {
  const client = await cliClient(options.port);
  const health = await client.health();
  if (!health) {
    throw new UserError(`hub is not running on port ${client.port}. Start it with "hub start".`);
  }
  // Without the secret the hub shows only its public status ({"status":"ok"}), none of the rest.
  if (!client.secret) {
    throw new UserError(
      `A hub runs on port ${client.port}, but there is no secret in ${cliPaths().auth} to read ` +
        "its status. Run hub status with the same HUB_CONFIG_DIR as the hub.",
    );
  }
  if (options.json) return printJson(health);
  console.log(formatStatus(health, client.port));
}

/** The `debugger` setting as `hub status` says it. */
const DEBUGGER_TEXT = {
  auto: "auto (attached to a tab only while a tool needs it)",
  off: "off (never attached: hub config set debugger auto turns it on)",
} as const;

/**
 * Plugin names, paths and errors come from plugins: every line is escaped once as a whole
 * (protocol/visible_text.ts), so a line break in one cannot start a line of its own.
 */
export function formatStatus(h: HealthPayload, port: number): string {
  const lines = [
    `hub ${h.version} (SDK ${h.sdkVersion}) running on http://127.0.0.1:${port}`,
    `  mode:        ${h.mode}${h.skipPermissions ? " (permission checks SKIPPED)" : ""}`,
    `  uptime:      ${formatDuration(h.uptime)}`,
    `  extension:   ${
      h.extensionConnected ? `connected (${h.extensionConnections})` : "not connected"
    }`,
    ...(h.debugger ? [`  debugger:    ${DEBUGGER_TEXT[h.debugger]}`] : []),
    `  MCP clients: ${h.mcpClients}`,
    `  plugins:     ${h.plugins} loaded, ${h.failedPlugins.length} failed`,
    `  tools:       ${h.toolCount} (${h.browserToolCount} browser, ${h.pluginToolCount} plugin)`,
  ];
  for (const p of h.pluginDetails) {
    lines.push(
      `    ${p.name.padEnd(20)} ${p.tabState.padEnd(11)} ${p.toolCount} tool${
        p.toolCount === 1 ? " " : "s"
      }  ${p.source}`,
    );
  }
  for (const f of h.failedPlugins) lines.push(`    failed: ${f.path}: ${f.error}`);
  for (const e of h.discoveryErrors) {
    lines.push(`    discovery (${e.source}) ${e.specifier}: ${e.error}`);
  }
  return lines.map((line) => visibleText(line)).join("\n");
}

export function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
