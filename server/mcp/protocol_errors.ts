/**
 * MCP's protocol-level errors: JSON-RPC errors, where a tool's own failure is a tool result
 * (`errorResult`, server/calls/results.ts). Two functions answer them all:
 *
 * - `rpcErrorOf`, the one mapper of a thrown value to a JSON-RPC error object, the way the SDK's
 *   server makes one (an integer `code` and its message pass; anything else is -32603); the fast
 *   path answers with it, and the builders below (`invalidParams`…) make the errors it maps;
 * - `sessionError`, the HTTP answer to a request the session table refuses, with the status and
 *   JSON-RPC code of its kind from one table (the codes the SDK's transport uses).
 */
import { jsonResponse } from "../http/http_error.ts";
import { RPC_ERRORS, RpcError, type RpcErrorObject } from "../../protocol/rpc.ts";

/** JSON-RPC's implementation-defined server error: a condition of the server, not a bug. */
const SERVER_ERROR = -32000;
/** The SDK's code for a session id it does not know. */
const SESSION_NOT_FOUND = -32001;

/** A thrown error as a JSON-RPC error object, the way the SDK's server turns it into one. */
export function rpcErrorOf(error: unknown): RpcErrorObject {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  const code = Number.isSafeInteger(e?.code) ? e!.code as number : RPC_ERRORS.INTERNAL_ERROR;
  const message = typeof e?.message === "string" ? e.message : "Internal error";
  return e?.data === undefined ? { code, message } : { code, message, data: e.data };
}

/**
 * -32602 Invalid params, with a short line that says what to send. The SDK's server answers a
 * thrown error that carries an integer `code` with that code and message, and the front
 * (`rpcErrorOf`) does the same.
 */
export function invalidParams(message: string): RpcError {
  return new RpcError(RPC_ERRORS.INVALID_PARAMS, `Invalid params: ${message}`);
}

/** -32601: the SDK's own answer to a method it has no handler for. */
export function methodNotFound(): RpcError {
  return new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, "Method not found");
}

/** -32600 Invalid Request: a message the front cannot take as it is. */
export function invalidRequest(message: string): RpcError {
  return new RpcError(RPC_ERRORS.INVALID_REQUEST, `Invalid Request: ${message}`);
}

/** -32000: a condition of the server (not an internal error) the message explains. */
export function serverError(message: string): RpcError {
  return new RpcError(SERVER_ERROR, message);
}

/** Each refusal of the session table: its HTTP status and JSON-RPC code. */
const SESSION_ERRORS = {
  /** A request without `mcp-session-id` that opens no session. */
  NO_SESSION: { status: 400, code: SERVER_ERROR },
  /** A `Last-Event-ID` the session does not know. */
  UNKNOWN_EVENT_ID: { status: 400, code: SERVER_ERROR },
  /** A resumed stream whose request does not accept `text/event-stream`. */
  NOT_ACCEPTABLE: { status: 406, code: SERVER_ERROR },
  /** A session id that is closed, expired or of the other endpoint. */
  SESSION_NOT_FOUND: { status: 404, code: SESSION_NOT_FOUND },
  /** Over the limit of new sessions a minute (with `Retry-After`). */
  TOO_MANY_SESSIONS: { status: 429, code: SERVER_ERROR },
} as const;

export type SessionErrorKind = keyof typeof SESSION_ERRORS;

/** The answer to a request the session table refuses: a JSON-RPC error with no id. */
export function sessionError(
  kind: SessionErrorKind,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const { status, code } = SESSION_ERRORS[kind];
  const error: RpcErrorObject = { code, message };
  return jsonResponse({ jsonrpc: "2.0", id: null, error }, status, headers);
}
