import type { HubPaths } from "../../core/config/paths.ts";
import type { TelemetryDecision } from "../../core/telemetry/decision.ts";
import { telemetryNotice } from "../../core/telemetry/notice.ts";

/** What `hub start` tells a person: first-run instructions and MCP client configuration. */

export function mcpClientConfig(port: number, secret: string): string {
  const headers = { Authorization: `Bearer ${secret}` };
  const full = {
    mcpServers: { hub: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers } },
  };
  const gateway = {
    mcpServers: {
      hub: { type: "http", url: `http://127.0.0.1:${port}/mcp/gateway`, headers },
    },
  };
  return [
    "MCP client configuration (paste into your client's MCP settings):",
    "",
    "Full mode (all tools loaded up front):",
    JSON.stringify(full, null, 2),
    "",
    "Gateway mode (two tools, hub_list_tools and hub_call; saves context):",
    JSON.stringify(gateway, null, 2),
    "",
    'Clients that only spawn processes (stdio); hub must already run ("hub start --background"):',
    JSON.stringify(
      {
        mcpServers: { hub: { command: "hub", args: ["start", "--stdio", "--port", String(port)] } },
      },
      null,
      2,
    ),
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
