/**
 * Light shape checks of incoming MCP messages, done before (or without) the SDK: which messages of
 * a batch are requests, and whether a body asks to initialize a session. The SDK's transport checks
 * the full schema of whatever it is handed afterwards.
 */
import { isPlainObject } from "../../protocol/plain_object.ts";

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A JSON-RPC request: `jsonrpc: "2.0"`, a string or integer id, a method name, optional object
 * params and no other member (the SDK's schema is strict).
 */
export function isJsonRpcRequest(
  message: unknown,
): message is {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
} {
  if (!isPlainObject(message) || message.jsonrpc !== "2.0") return false;
  const { id, method, params } = message;
  if (params !== undefined && !isPlainObject(params)) return false;
  if (!Object.keys(message).every((key) => REQUEST_KEYS.has(key))) return false;
  return typeof method === "string" && (typeof id === "string" || Number.isSafeInteger(id));
}

/** An `initialize` request with the params it must carry (protocol version, capabilities, client). */
export function isInitializeRequest(message: unknown): boolean {
  if (!isPlainObject(message) || message.method !== "initialize") return false;
  const params = message.params;
  if (!isPlainObject(params) || typeof params.protocolVersion !== "string") return false;
  const { capabilities, clientInfo } = params;
  return isPlainObject(capabilities) && isPlainObject(clientInfo) &&
    typeof clientInfo.name === "string" && typeof clientInfo.version === "string";
}
