/** The official MCP SDK client, connected to a hub's `/mcp` or `/mcp/gateway`. */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export { Client, StreamableHTTPClientTransport };

export async function connectMcp(
  url: string,
  secret: string,
  path: "/mcp" | "/mcp/gateway" = "/mcp",
): Promise<Client> {
  const client = new Client({ name: "hub-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  return client;
}

/** A raw MCP `initialize` request, for tests that speak the protocol without the SDK client. */
export function initializeRequest(clientName: string, id: number | string = 1) {
  return {
    jsonrpc: "2.0" as const,
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: clientName, version: "1.0.0" },
    },
  };
}
