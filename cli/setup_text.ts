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
    "The secret above is private: anyone with it can use your browser through hub.",
    'Print this again with "hub start --show-config".',
  ].join("\n");
}

export function firstRunText(configPath: string, extensionDir: string): string {
  return [
    "Welcome to hub. First run: created",
    `  ${configPath}   (settings, permissions; "hub config show")`,
    `  ${extensionDir}/auth.json   (the secret that authenticates every client)`,
    "",
    "Browser extension: open chrome://extensions, turn on Developer mode, choose",
    `"Load unpacked" and select ${extensionDir}`,
    "",
  ].join("\n");
}
