/**
 * The MCP SDK pieces the hub uses, imported once with their types. Deno types the SDK's wildcard
 * subpaths (`…/server/index.js`) as `any` unless pointed at the declaration files.
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  isInitializeRequest,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
