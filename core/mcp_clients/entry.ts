/**
 * The MCP entry hub writes into a client's settings, in the keys that client reads: for HTTP
 * (full or gateway) the URL and an Authorization header with the secret; for stdio the command
 * that bridges to the running hub (core/mcp_clients/stdio_command.ts), which reads the secret
 * itself. The result is plain data: JSON for the JSON files, a TOML table for Codex.
 */
import type { EntryShape } from "./clients.ts";

export type SetupMode = "http" | "gateway" | "stdio";

export interface StdioCommand {
  command: string;
  args: string[];
  /** Variables the bridge needs (HUB_CONFIG_DIR when hub's config folder is not the default). */
  env?: Record<string, string>;
}

export interface HubEndpoint {
  port: number;
  secret: string;
  mode: SetupMode;
  /** The bridge command (stdioCommand()); used for stdio, and for a stdio-only client. */
  stdio: StdioCommand;
  /**
   * How the client connects; default: stdio for mode "stdio", else http. A stdio-only client
   * (Claude Desktop) given mode "gateway" connects over stdio with `--gateway`.
   */
  transport?: "http" | "stdio";
}

/** The URL of hub's MCP endpoint for a mode. */
export function hubUrl(port: number, mode: SetupMode): string {
  return `http://127.0.0.1:${port}/mcp${mode === "gateway" ? "/gateway" : ""}`;
}

/** The bridge's arguments, `--gateway` added for the gateway mode (when not there already). */
function stdioArgs(endpoint: HubEndpoint): string[] {
  const args = [...endpoint.stdio.args];
  if (endpoint.mode === "gateway" && !args.includes("--gateway")) args.push("--gateway");
  return args;
}

function stdioEntry(shape: EntryShape, endpoint: HubEndpoint): Record<string, unknown> {
  const entry: Record<string, unknown> = shape === "vscode" ? { type: "stdio" } : {};
  entry.command = endpoint.stdio.command;
  entry.args = stdioArgs(endpoint);
  const env = endpoint.stdio.env;
  if (env && Object.keys(env).length > 0) entry.env = { ...env };
  return entry;
}

function httpEntry(shape: EntryShape, endpoint: HubEndpoint): Record<string, unknown> {
  const url = hubUrl(endpoint.port, endpoint.mode);
  const headers = { Authorization: `Bearer ${endpoint.secret}` };
  switch (shape) {
    case "claude":
    case "vscode":
      return { type: "http", url, headers };
    case "cursor":
      return { url, headers };
    case "windsurf":
      return { serverUrl: url, headers };
    case "gemini":
      return { httpUrl: url, headers };
    case "codex":
      return { url, http_headers: headers };
  }
}

/** The entry hub writes for a client shape. */
export function hubEntry(shape: EntryShape, endpoint: HubEndpoint): Record<string, unknown> {
  const transport = endpoint.transport ?? (endpoint.mode === "stdio" ? "stdio" : "http");
  return transport === "stdio" ? stdioEntry(shape, endpoint) : httpEntry(shape, endpoint);
}
