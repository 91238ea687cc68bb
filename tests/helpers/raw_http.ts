/**
 * HTTP/1.1 by hand over TCP, for requests `fetch` will not send: a forged `Host` header, garbage
 * bytes, oversized headers.
 */
import { concatBytes } from "../../protocol/bytes.ts";

export interface RawResponse {
  /** Status code of the response, or undefined when the server closed without one. */
  status: number | undefined;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Sends `data` as is on a new connection to 127.0.0.1:`port` and reads until the server closes. */
export async function rawSend(
  port: number,
  data: string | Uint8Array,
  timeoutMs = 10_000,
): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => closeQuietly(conn), timeoutMs);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const chunks: Uint8Array[] = [];
  try {
    try {
      let offset = 0;
      while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
    } catch {
      // the server may answer and close before it has read everything we send
    }
    try {
      const buffer = new Uint8Array(64 * 1024);
      while (true) {
        const n = await conn.read(buffer);
        if (n === null) break;
        chunks.push(buffer.slice(0, n));
      }
    } catch {
      // reset by peer after the response: keep what arrived
    }
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
  const text = new TextDecoder().decode(concatBytes(chunks));
  return parseResponse(text);
}

/** Sends one request with the given headers (plus `Connection: close`) and returns the response. */
export function rawRequest(
  port: number,
  request: { method?: string; path: string; headers: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const lines = [`${request.method ?? "GET"} ${request.path} HTTP/1.1`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  lines.push("Connection: close");
  if (request.body !== undefined) {
    lines.push(`Content-Length: ${new TextEncoder().encode(request.body).length}`);
  }
  return rawSend(port, lines.join("\r\n") + "\r\n\r\n" + (request.body ?? ""));
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf("\r\n\r\n");
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine, ...headerLines] = head.split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
  }
  return {
    status: match ? Number(match[1]) : undefined,
    headers,
    body: end === -1 ? "" : text.slice(end + 4),
  };
}

/**
 * Whether the server closes `conn` (end of stream or reset) within `ms`, reading and dropping what
 * it still sends; false when it was still open when the wait ended (then it is closed here).
 */
export async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    closeQuietly(conn);
  }, ms);
  try {
    const buffer = new Uint8Array(64 * 1024);
    while ((await conn.read(buffer)) !== null) {
      // whatever the server still sent before closing
    }
  } catch {
    // reset by the server, or closed by the timer
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
  return !timedOut;
}

export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
