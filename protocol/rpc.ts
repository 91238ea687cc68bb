/**
 * JSON-RPC 2.0 framing for the `/ws` link between hub and extension: message types, parsing a
 * frame into exactly one message or a ready-made error reply, and the standard error codes.
 * Both ends use this file, so a frame is judged the same way on either side.
 */
import { MAX_MESSAGE_BYTES } from "./limits.ts";

export const RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** WebSocket close codes of `/ws` (4000–4999 are application codes). */
/** The hub closes a connection that a newer one replaced. */
export const CLOSE_REPLACED = 4000;
/** The hub closes when the secret changed; the extension reconnects with the new one. */
export const CLOSE_SECRET_ROTATED = 4001;
/** The extension closes a link that stopped answering its pings. */
export const CLOSE_NO_ANSWER = 4002;

/** Frames larger than this are refused: the one message limit of every transport. */
export const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES;

export type RpcId = string | number;

/**
 * A handler refuses a request with this, on either end of `/ws`; it becomes the JSON-RPC error
 * reply (`code`, `message`, and `data` when given).
 */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = "RpcError";
  }
}

export interface RpcRequest {
  jsonrpc: "2.0";
  id: RpcId;
  method: string;
  params?: unknown;
}

export interface RpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse =
  | { jsonrpc: "2.0"; id: RpcId; result: unknown }
  | { jsonrpc: "2.0"; id: RpcId | null; error: RpcErrorObject };

export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

/** What a frame turned out to be: a message to handle, or an error to send back (or drop). */
export type ParsedFrame =
  | { kind: "request"; message: RpcRequest }
  | { kind: "notification"; message: RpcNotification }
  | { kind: "response"; message: RpcResponse }
  | { kind: "invalid"; reply?: RpcResponse };

export function errorReply(id: RpcId | null, code: number, message: string): RpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function isId(value: unknown): value is RpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Byte length of a UTF-8 string without encoding it (frames can be large). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Parses one WebSocket text frame. Anything that is not a single valid JSON-RPC 2.0 message gives
 * `invalid`, with a reply when the sender can use one (a request id was readable, or the frame
 * was not JSON at all, answered with id null as the spec says).
 */
export function parseFrame(frame: unknown): ParsedFrame {
  const value = parseJson(frame);
  return "kind" in value ? value : classify(value.json);
}

/**
 * Like `parseFrame`, but a JSON array (a JSON-RPC batch) gives one parsed message per element,
 * in order. The extension accepts batches (earlier hubs batched a notification with the next
 * message); the hub accepts none.
 */
export function parseBatchFrame(frame: unknown): ParsedFrame[] {
  const value = parseJson(frame);
  if ("kind" in value) return [value];
  if (!Array.isArray(value.json) || value.json.length === 0) return [classify(value.json)];
  return value.json.map(classify);
}

function parseJson(frame: unknown): ParsedFrame | { json: unknown } {
  if (typeof frame !== "string") {
    return {
      kind: "invalid",
      reply: errorReply(null, RPC_ERRORS.INVALID_REQUEST, "Binary frames are not supported."),
    };
  }
  const tooLong = frame.length > MAX_FRAME_BYTES ||
    (frame.length * 3 > MAX_FRAME_BYTES && utf8Length(frame) > MAX_FRAME_BYTES);
  if (tooLong) {
    return {
      kind: "invalid",
      reply: errorReply(
        null,
        RPC_ERRORS.INVALID_REQUEST,
        `Frame of ${utf8Length(frame)} bytes refused: the limit is ${MAX_FRAME_BYTES} bytes.`,
      ),
    };
  }
  try {
    return { json: JSON.parse(frame) };
  } catch (error) {
    return {
      kind: "invalid",
      reply: errorReply(null, RPC_ERRORS.PARSE_ERROR, `Invalid JSON: ${(error as Error).message}`),
    };
  }
}

function classify(value: unknown): ParsedFrame {
  if (Array.isArray(value)) {
    return {
      kind: "invalid",
      reply: errorReply(null, RPC_ERRORS.INVALID_REQUEST, "Batches are not supported."),
    };
  }
  if (typeof value !== "object" || value === null) {
    return {
      kind: "invalid",
      reply: errorReply(null, RPC_ERRORS.INVALID_REQUEST, "A message must be a JSON object."),
    };
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  const bad = (why: string): ParsedFrame => ({
    kind: "invalid",
    reply: errorReply(id, RPC_ERRORS.INVALID_REQUEST, why),
  });
  if (m.jsonrpc !== "2.0") return bad('"jsonrpc" must be "2.0".');
  if ("method" in m) {
    if (typeof m.method !== "string" || m.method === "") return bad('"method" must be a string.');
    if (!("id" in m)) return { kind: "notification", message: m as unknown as RpcNotification };
    if (!isId(m.id)) return bad('"id" must be a string or a number.');
    return { kind: "request", message: m as unknown as RpcRequest };
  }
  if (!isId(m.id) && m.id !== null) return bad('A response needs an "id".');
  if ("result" in m === "error" in m) {
    return bad('A response has exactly one of "result", "error".');
  }
  if ("error" in m) {
    const e = m.error as RpcErrorObject;
    if (typeof e !== "object" || e === null || typeof e.code !== "number") {
      return bad('"error" must be an object with a numeric "code".');
    }
  }
  // A response we cannot match (id null) is dropped without a reply: replying could loop.
  if (m.id === null) return { kind: "invalid" };
  return { kind: "response", message: m as unknown as RpcResponse };
}
