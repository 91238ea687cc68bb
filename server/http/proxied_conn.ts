/**
 * One client connection relayed to the real HTTP server: bytes pass through unchanged in both
 * directions while a request scan follows the client's side (request heads, bodies, WebSocket
 * frames) and refuses what it must. The upstream connection is opened only when the client sends
 * its first bytes, so an idle connection costs one descriptor.
 */
import { createRequestScan } from "./request_scan.ts";
import type { TrackedConn } from "./conn_table.ts";

/** Read buffer per direction; a connection holds at most two. */
const BUFFER_BYTES = 16 * 1024;
/** The server's answer to an upgrade request is a short head; more means something is wrong. */
const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;
/** After a refused request, the server has this long to finish answering the earlier ones. */
const DRAIN_MS = 10_000;
/** After the last answer, what the client still sends is read and dropped this long at most. */
const LINGER_MS = 2_000;

export interface ProxiedConn extends TrackedConn {
  /** Relays until either side closes; never rejects. */
  run(): Promise<void>;
}

export interface ProxyDeps {
  connectUpstream(): Promise<Deno.Conn>;
  maxWsMessageBytes: number;
  /** Called once when the connection closes, with why when it was closed on purpose. */
  onClose(conn: ProxiedConn, reason?: string): void;
}

export function proxyConnection(client: Deno.Conn, deps: ProxyDeps): ProxiedConn {
  const scan = createRequestScan(deps.maxWsMessageBytes);
  let upstream: Deno.Conn | undefined;
  let closed = false;
  /** Set from the moment an upgrade request is forwarded until the server's answer is read. */
  let awaitingAnswer: ((status: number) => void) | undefined;
  let responseHead = "";
  let forwarded = 0;
  let refused = false;
  /** The client sent its end (EOF). */
  let clientEnded = false;
  /** Our side towards the client is finished; what it still sends is dropped until the close. */
  let lingering = false;
  /** Writing to the server failed: it closed its side; the client's bytes are dropped. */
  let upstreamBroken = false;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const accepted = Date.now();

  const conn: ProxiedConn = {
    lastActive: accepted,
    headSince: accepted,
    upgraded: false,
    close(reason) {
      if (closed) return;
      closed = true;
      clearTimeout(drainTimer);
      closeQuietly(client);
      if (upstream) closeQuietly(upstream);
      answer(0);
      deps.onClose(conn, reason);
    },
    run: () => clientToServer().catch(() => conn.close()),
  };
  const end = () => conn.close();

  /** Hands the status of the upgrade answer (0 = none) to the waiting client side, once. */
  function answer(status: number): void {
    const resolve = awaitingAnswer;
    awaitingAnswer = undefined;
    resolve?.(status);
  }

  async function clientToServer(): Promise<void> {
    const buffer = new Uint8Array(BUFFER_BYTES);
    while (!closed) {
      const n = await client.read(buffer);
      if (n === null) {
        clientEnded = true;
        return lingering ? end() : halfClose();
      }
      if (refused || lingering || upstreamBroken) continue; // dropped, see linger()
      conn.lastActive = Date.now();
      if (!upstream) {
        upstream = await deps.connectUpstream();
        if (closed) return closeQuietly(upstream);
        void serverToClient(upstream);
      }
      await relay(upstream, buffer.subarray(0, n));
      conn.headSince = scan.headPending ? (conn.headSince ?? conn.lastActive) : undefined;
    }
  }

  /** Passes one chunk through the scan to the server, waiting for an upgrade answer on the way. */
  async function relay(target: Deno.Conn, chunk: Uint8Array): Promise<void> {
    while (!closed) {
      const step = scan.push(chunk);
      if (step.error) {
        if (step.forward > 0) await forward(target, chunk.subarray(0, step.forward));
        return await refuse(step.error);
      }
      const answered = step.awaitUpgrade
        ? new Promise<number>((resolve) => (awaitingAnswer = resolve))
        : undefined;
      if (step.forward > 0) await forward(target, chunk.subarray(0, step.forward));
      if (!answered) return;
      const status = await answered;
      if (closed) return;
      scan.answerUpgrade(status);
      conn.upgraded = scan.upgraded;
      chunk = chunk.subarray(step.forward);
      if (chunk.length === 0) return;
    }
  }

  /**
   * Passes bytes to the server. When the server has closed (it answered early, e.g. a 400, and
   * stopped reading), the rest of the request is dropped and its answer still reaches the client.
   */
  async function forward(target: Deno.Conn, bytes: Uint8Array): Promise<void> {
    forwarded += bytes.length;
    try {
      await writeAll(target, bytes);
    } catch {
      upstreamBroken = true;
    }
  }

  /**
   * Stops a request the scan cannot follow. A WebSocket closes at once (its frames must not be
   * buffered); a first request is answered 400 by the guard itself; after earlier requests, the
   * server finishes answering those (its side is half-closed), then the connection closes.
   */
  async function refuse(why: string): Promise<void> {
    refused = true;
    const reason = `refused: ${why}`;
    if (conn.upgraded) return conn.close(reason);
    if (forwarded === 0) {
      await writeAll(client, badRequest(why)).catch(() => {});
      return linger(reason);
    }
    drainTimer = setTimeout(() => conn.close(reason), DRAIN_MS);
    try {
      upstream?.closeWrite();
    } catch {
      conn.close(reason);
    }
  }

  /**
   * Ends our side towards the client (FIN), then reads and drops what it still sends until it ends
   * too or LINGER_MS pass. Closing a socket with unread bytes resets the connection, and the reset
   * can destroy the answer before the client has read it.
   */
  function linger(reason?: string): void {
    if (closed || lingering) return;
    if (clientEnded) return conn.close(reason);
    lingering = true;
    if (upstream) closeQuietly(upstream);
    try {
      client.closeWrite();
    } catch {
      return conn.close(reason);
    }
    clearTimeout(drainTimer);
    drainTimer = setTimeout(() => conn.close(reason), LINGER_MS);
  }

  function halfClose(): void {
    if (!upstream) return end();
    try {
      upstream.closeWrite(); // the server still answers what it was sent
    } catch {
      end();
    }
  }

  async function serverToClient(source: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(BUFFER_BYTES);
    try {
      while (!closed) {
        const n = await source.read(buffer);
        if (n === null) break;
        conn.lastActive = Date.now();
        const chunk = buffer.subarray(0, n);
        if (awaitingAnswer) readAnswer(chunk);
        await writeAll(client, chunk);
      }
    } catch {
      // either side went away
    }
    linger();
  }

  /** Reads the status of the server's answer to an upgrade request (skipping 1xx interim heads). */
  function readAnswer(chunk: Uint8Array): void {
    responseHead += new TextDecoder().decode(chunk);
    while (awaitingAnswer) {
      const endOfHead = responseHead.indexOf("\r\n\r\n");
      if (endOfHead === -1) {
        if (responseHead.length > MAX_RESPONSE_HEAD_BYTES) conn.close("unreadable upgrade answer");
        return;
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(responseHead)?.[1] ?? 0);
      responseHead = responseHead.slice(endOfHead + 4);
      if (status === 0) return conn.close("unreadable upgrade answer");
      if (status >= 200 || status === 101) {
        responseHead = "";
        answer(status);
      }
    }
  }

  return conn;
}

/** The guard's own answer to a first request it cannot follow: a 400 that says why. */
function badRequest(why: string): Uint8Array {
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

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
