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

/** The guard's own answer to a first request it cannot follow: a 400 that says why. */
export function badRequest(why: string): Uint8Array {
  const body = JSON.stringify({
    error: {
      code: "BAD_REQUEST",
      message: `hub cannot read this request (${why}). Send one HTTP/1.1 request at a time ` +
        "with a request head under 64 KiB and at most one Content-Length or chunked encoding.",
    },
  });
  return new TextEncoder().encode(
    "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n" +
      `content-length: ${new TextEncoder().encode(body).length}\r\n\r\n${body}`,
  );
}
