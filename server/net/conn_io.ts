/** Small helpers for the guard's raw connections: full writes, quiet closes, its own 400. */

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
  return jsonAnswer(
    "400 Bad Request",
    {},
    "BAD_REQUEST",
    `hub cannot read this request (${why}). ${hint(why)}`,
  );
}

/** The answer when the internal HTTP server cannot be reached for a moment (it is restarting). */
export function serverUnavailable(): Uint8Array {
  return jsonAnswer(
    "503 Service Unavailable",
    { "retry-after": "1" },
    "SERVER_RESTARTING",
    "hub's internal HTTP server is restarting (too many open connections or files). " +
      "Retry the request in a second.",
  );
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

function jsonAnswer(
  status: string,
  headers: Record<string, string>,
  code: string,
  message: string,
): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify({ error: { code, message } }));
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  const head = new TextEncoder().encode(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\nconnection: close\r\n${extra}` +
      `content-length: ${body.length}\r\n\r\n`,
  );
  const answer = new Uint8Array(head.length + body.length);
  answer.set(head);
  answer.set(body, head.length);
  return answer;
}
