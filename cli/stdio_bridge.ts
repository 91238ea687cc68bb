/**
 * `hub start --stdio`: a bridge, not a server. An MCP client that spawns this process talks MCP on
 * stdin/stdout; every message goes to the running hub's `/mcp` (or `/mcp/gateway`) over Streamable
 * HTTP, and everything the hub sends (responses, progress, logs, list changes) comes back. Stdout
 * carries only protocol messages; diagnostics go to stderr.
 */
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";
import { CliError } from "./cli_error.ts";
import { cliClient, cliPaths } from "./context.ts";

export interface BridgeOptions {
  port?: string;
  gateway?: boolean;
}

function log(message: string): void {
  console.error(`hub --stdio: ${message}`);
}

export async function stdioBridge(options: BridgeOptions): Promise<void> {
  const client = await cliClient(options.port);
  // health() throws a clear message when the hub refuses this config dir's secret.
  if (!(await client.health(3_000))) {
    throw new CliError(
      `No hub is running on port ${client.port}. "hub start --stdio" only connects an MCP ` +
        'client to a running hub: start one first with "hub start --background" (or ' +
        '"hub start" in another terminal), or set the port with --port / HUB_PORT.',
    );
  }
  if (!client.secret) {
    throw new CliError(
      `No secret in ${cliPaths().auth}. Run the bridge with the same HUB_CONFIG_DIR as the hub.`,
    );
  }
  const path = options.gateway ? "/mcp/gateway" : "/mcp";
  const headers: Record<string, string> = {};
  if (client.secret) headers.authorization = `Bearer ${client.secret}`;
  const http = new StreamableHTTPClientTransport(new URL(`${client.baseUrl}${path}`), {
    requestInit: { headers },
  });
  const stdio = new StdioServerTransport();
  const initializeIds = new Set<string | number>();

  stdio.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: string | number; method?: string };
    if (m.method === "initialize" && m.id !== undefined) initializeIds.add(m.id);
    http.send(message).catch((error: Error) => {
      log(`could not reach the hub at ${client.baseUrl}${path}: ${error.message}`);
      if (m.id !== undefined && m.method !== undefined) {
        void stdio.send({
          jsonrpc: "2.0",
          id: m.id,
          error: {
            code: -32000,
            message: `hub on port ${client.port} did not take the request: ${error.message}`,
          },
        });
      }
    });
  };
  http.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: string | number; result?: { protocolVersion?: string } };
    if (m.id !== undefined && initializeIds.delete(m.id) && m.result?.protocolVersion) {
      http.setProtocolVersion(m.result.protocolVersion);
    }
    void stdio.send(message).catch((error: Error) => log(`stdout closed: ${error.message}`));
  };
  http.onerror = (error: Error) => log(error.message);

  const done = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  // The client closing our stdin (or stopping us) ends the bridge and its hub session.
  process.stdin.on("end", () => void stdio.close());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => void stdio.close());
  }
  await http.start();
  await stdio.start();
  log(`bridging stdio to ${client.baseUrl}${path}`);
  await done;
  await http.terminateSession().catch(() => {});
  await http.close().catch(() => {});
}
