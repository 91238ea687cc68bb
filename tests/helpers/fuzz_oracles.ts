/**
 * What the fuzz suites accept as a reply. Each check returns a short description of what is wrong
 * (to put in the property's failure) or undefined when the reply is acceptable.
 */
import { MAX_ANY_BODY_BYTES, MAX_ERROR_BODY_BYTES } from "./fuzz_hub.ts";

export interface SeenReply {
  method: string;
  path: string;
  status: number | undefined;
  contentType: string;
  body: string;
  /** Sent over a raw socket: the HTTP layer itself may refuse a request before the hub sees it. */
  raw?: boolean;
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** An HTTP reply: never 500, errors are bounded JSON, no body is huge, no internal JSON-RPC error. */
export function httpProblem(reply: SeenReply): string | undefined {
  const { status, body } = reply;
  const where = `${reply.method} ${reply.path.slice(0, 200)} → ${status}`;
  if (status === undefined) return `${where}: the connection closed without a response`;
  if (status === 500) return `${where}: 500 ${body.slice(0, 500)}`;
  const size = bytes(body);
  if (size > MAX_ANY_BODY_BYTES) return `${where}: a ${size}-byte body`;
  if (status < 400 && !reply.contentType.includes("text/event-stream")) {
    return rpcProblem(where, body);
  }
  if (status < 400) return sseProblem(where, body);
  if (reply.method === "HEAD") return undefined;
  // hyper refuses some malformed requests itself, with an empty body; that is not the hub.
  if (reply.raw && body === "" && reply.contentType === "" && status < 500) return undefined;
  if (size > MAX_ERROR_BODY_BYTES) return `${where}: a ${size}-byte error body`;
  if (!reply.contentType.includes("application/json")) {
    return `${where}: error body is ${reply.contentType || "untyped"}: ${body.slice(0, 300)}`;
  }
  try {
    JSON.parse(body);
  } catch {
    return `${where}: error body is not JSON: ${body.slice(0, 300)}`;
  }
  return rpcProblem(where, body);
}

/** JSON-RPC error objects inside a JSON body (single or batch). */
function rpcErrors(value: unknown): { code?: unknown; message?: unknown }[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .filter((m) => typeof m === "object" && m !== null && "error" in m && "jsonrpc" in m)
    .map((m) => (m as { error: { code?: unknown; message?: unknown } }).error ?? {});
}

function rpcProblem(where: string, body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  return jsonRpcProblem(where, parsed);
}

/** A JSON-RPC message: no internal error (-32603), and a bounded error. */
export function jsonRpcProblem(where: string, message: unknown): string | undefined {
  for (const error of rpcErrors(message)) {
    const size = bytes(JSON.stringify(error));
    if (error.code === -32603) {
      return `${where}: JSON-RPC -32603 internal error: ${String(error.message).slice(0, 500)}`;
    }
    if (size > MAX_ERROR_BODY_BYTES) return `${where}: a ${size}-byte JSON-RPC error`;
  }
  return undefined;
}

/** Each `data:` event of an SSE body is checked like a JSON body. */
function sseProblem(where: string, body: string): string | undefined {
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return `${where}: SSE data is not JSON: ${data.slice(0, 300)}`;
    }
    const problem = jsonRpcProblem(where, parsed) ?? toolErrorProblem(where, parsed);
    if (problem) return problem;
  }
  return undefined;
}

/** A tool result inside a JSON-RPC reply whose error text is over the error bound. */
function toolErrorProblem(where: string, message: unknown): string | undefined {
  const result = (message as { result?: { isError?: boolean } })?.result;
  if (!result?.isError) return undefined;
  const size = bytes(JSON.stringify(result));
  return size > MAX_ERROR_BODY_BYTES ? `${where}: a ${size}-byte tool error result` : undefined;
}

/** Reads a fetch Response into a SeenReply. */
export async function seen(method: string, path: string, res: Response): Promise<SeenReply> {
  return {
    method,
    path,
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    body: await res.text(),
  };
}
