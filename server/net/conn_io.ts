/**
 * Small helpers for the guard's raw connections: full writes, quiet closes, and its own error
 * answers (400, 503) in the hub's one error shape.
 */
import { errorBody, type HubError, hubError, restStatus } from "../../protocol/errors.ts";

export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/**
 * Ends our sending side (FIN); `onFailure` runs when that fails (the connection is gone). Never
 * throws or rejects: `closeWrite` answers with a promise that rejects on a closed connection, and an
 * unhandled rejection would end the process.
 */
export function closeWriteQuietly(conn: Deno.Conn, onFailure: () => void): void {
  try {
    Promise.resolve(conn.closeWrite()).catch(onFailure);
  } catch {
    onFailure();
  }
}

export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}

/** The guard's own answer to a first request it cannot follow: a 400 that says why and what to do. */
export function badRequest(why: string): Uint8Array {
  return rawAnswer(hubError("BAD_REQUEST", `hub cannot read this request (${why}). ${hint(why)}`));
}

/** The answer when the internal HTTP server cannot be reached for a moment (it is restarting). */
export function serverUnavailable(): Uint8Array {
  return rawAnswer(hubError(
    "SERVER_RESTARTING",
    "hub's internal HTTP server is restarting (too many open connections or files). " +
      "Retry the request in a second.",
    undefined,
    { headers: { "retry-after": "1" } },
  ));
}

function hint(why: string): string {
  if (/WebSocket/.test(why)) {
    return "A WebSocket upgrade has no body and must be the first request on its connection.";
  }
  if (/HTTP\/1/.test(why)) return "Speak HTTP/1.1 to this port (not HTTP/2 or TLS).";
  if (/head over/.test(why)) {
    return "Keep the request head (request line and headers) under 64 KiB.";
  }
  return "Give a body exactly one valid Content-Length or Transfer-Encoding: chunked, not both.";
}

/** The reason phrases of the statuses the guard answers with itself. */
const REASONS: Record<number, string> = { 400: "Bad Request", 503: "Service Unavailable" };

/**
 * An error as raw HTTP/1.1 bytes that close the connection: the status from `restStatus` and the
 * body from `errorBody` (protocol/errors.ts), as every REST error answer has.
 */
function rawAnswer(error: HubError): Uint8Array {
  const status = restStatus(error);
  const body = new TextEncoder().encode(JSON.stringify(errorBody(error)));
  const extra = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const head = new TextEncoder().encode(
    `HTTP/1.1 ${status} ${REASONS[status] ?? ""}\r\ncontent-type: application/json\r\n` +
      `connection: close\r\n${extra}content-length: ${body.length}\r\n\r\n`,
  );
  const answer = new Uint8Array(head.length + body.length);
  answer.set(head);
  answer.set(body, head.length);
  return answer;
}
