import type { HubPaths } from "../../core/config/paths.ts";
import type { TelemetryDecision } from "../../core/telemetry/decision.ts";
import { telemetryNotice } from "../../core/telemetry/notice.ts";
import { hubEntry, type SetupMode, type StdioCommand } from "../../core/mcp_clients/entry.ts";
import { stdioCommand } from "../../core/mcp_clients/stdio_command.ts";
import { HUB_PERMISSION_FLAGS } from "./deno_permissions.ts";

/** What `hub start` tells a person: first-run instructions and MCP client configuration. */

/** The stdio bridge of this install, as a client spawns it (absolute paths). */
export function thisStdioCommand(port: number): StdioCommand {
  return stdioCommand({ port, permissionFlags: HUB_PERMISSION_FLAGS });
}

export function mcpClientConfig(
  port: number,
  secret: string,
  stdio: StdioCommand = thisStdioCommand(port),
): string {
  const block = (mode: SetupMode) => {
    const hub = hubEntry("claude", { port, secret, mode, stdio });
    return JSON.stringify({ mcpServers: { hub } }, null, 2);
  };
  return [
    'Connect your MCP clients: "hub setup" writes this into their settings for you.',
    "Or paste one of these into your client's MCP settings:",
    "",
    "Full mode (all tools loaded up front):",
    block("http"),
    "",
    "Gateway mode (two tools, hub_list_tools and hub_call; saves context):",
    block("gateway"),
    "",
    'Clients that only spawn processes (stdio); hub must already run ("hub start --background"):',
    block("stdio"),
    "",
    "The secret above is private: anyone with it can use your browser through hub.",
    'Print this again with "hub start --show-config".',
  ].join("\n");
}

export function firstRunText(
  paths: HubPaths,
  createdSecret: boolean,
  telemetry?: TelemetryDecision,
): string {
  const lines = [
    "Welcome to hub. First run: created",
    `  ${paths.config}   (settings and permissions; "hub config show")`,
  ];
  if (createdSecret) {
    lines.push(`  ${paths.auth}   (the secret that authenticates every client)`);
  }
  lines.push(
    "",
    "Browser extension (once): open chrome://extensions in Chromium, turn on Developer mode,",
    `choose "Load unpacked" and select ${paths.extensionDir}`,
    "hub keeps that folder up to date; the extension connects by itself while hub runs.",
    "Click its toolbar icon for the side panel: allow tools there (all start off) and answer",
    'the confirmations of tools set to "ask".',
    "",
  );
  if (telemetry) lines.push(...telemetryNotice(telemetry), "");
  return lines.join("\n");
}
