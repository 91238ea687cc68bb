/**
 * Which POSTs of an open session hub answers itself (`front.ts`) instead of the SDK's transport:
 * one JSON-RPC request (not a batch) of `tools/call`, `tools/list` or `ping`, well formed, with the
 * headers the SDK would accept. Anything else, including every malformed or unusual message, goes
 * to the SDK, so its answers (406, 415, 400, -32600…) stay exactly what they were.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "./protocol_versions.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { isJsonRpcRequest } from "./message_shape.ts";

/** The first protocol version whose clients resume streams (priming events). */
export const RESUMABLE_PROTOCOL = "2025-11-25";
/** What the SDK assumes when a request has no `mcp-protocol-version` header. */
const DEFAULT_PROTOCOL = "2025-03-26";

export type FastMethod = "tools/call" | "tools/list" | "ping";
const FAST_METHODS = new Set<string>(["tools/call", "tools/list", "ping"]);
const RELATED_TASK = "io.modelcontextprotocol/related-task";

export interface FastRequest {
  id: string | number;
  method: FastMethod;
  params: Record<string, unknown> | undefined;
  /** The client reads priming events and resumes dropped streams (protocol 2025-11-25 or later). */
  resumable: boolean;
}

/** The request if the front may answer it, else undefined (the SDK answers). */
export function fastRequest(req: Request, body: unknown): FastRequest | undefined {
  if (!isJsonRpcRequest(body) || !FAST_METHODS.has(body.method)) return undefined;
  const { id, method, params } = body;
  if (params !== undefined && !wellFormedParams(method as FastMethod, params)) return undefined;
  const version = acceptedVersion(req.headers);
  if (version === undefined) return undefined;
  return {
    id,
    method: method as FastMethod,
    params,
    resumable: version >= RESUMABLE_PROTOCOL,
  };
}

/** Whether a request's Accept header lists SSE (the SDK's check for streams). */
export function acceptsEventStream(headers: Headers): boolean {
  return headers.get("accept")?.includes("text/event-stream") ?? false;
}

/** The request's protocol version when its headers pass the SDK's checks, else undefined. */
function acceptedVersion(headers: Headers): string | undefined {
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !acceptsEventStream(headers)) return;
  const type = headers.get("content-type");
  if (type === null || mediaType(type) !== "application/json") return;
  const version = headers.get("mcp-protocol-version");
  if (version === null) return DEFAULT_PROTOCOL;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : undefined;
}

function mediaType(header: string): string {
  const semicolon = header.indexOf(";");
  return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/** Params the SDK's schemas accept as they are (the SDK answers the rest with its own errors). */
function wellFormedParams(method: FastMethod, params: Record<string, unknown>): boolean {
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isPlainObject(meta) || meta[RELATED_TASK] !== undefined) return false;
    const token = meta.progressToken;
    if (token !== undefined && typeof token !== "string" && !Number.isSafeInteger(token)) {
      return false;
    }
  }
  if (method === "tools/call") return params.task === undefined;
  if (method === "tools/list") {
    return params.cursor === undefined || typeof params.cursor === "string";
  }
  return true;
}
