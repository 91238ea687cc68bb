/**
 * The hub's own accept loop on the public port. It survives accept errors (out of descriptors
 * included), keeps at most a capped number of connections (at the cap the connection that has been
 * sending a request head the longest gives way to the newcomer), closes connections whose request
 * head is not complete within a short timeout (slowloris), and relays every connection to the real
 * HTTP server through a proxy that refuses oversized WebSocket messages from their frame headers.
 */
import type { Logger } from "../log/logger.ts";
import { createConnTable } from "./conn_table.ts";
import { type ProxiedConn, proxyConnection } from "./proxied_conn.ts";

/** A client has this long to send a complete request head (after connecting or after its first byte). */
export const REQUEST_HEAD_TIMEOUT_MS = 10_000;
/** Accept errors back off from this to MAX_ACCEPT_BACKOFF_MS, doubling. */
const MIN_ACCEPT_BACKOFF_MS = 10;
const MAX_ACCEPT_BACKOFF_MS = 1_000;
/** At most one warning about the connection cap per this period. */
const CAP_WARNING_INTERVAL_MS = 60_000;
const MAX_LOGGED_ERROR_CHARS = 200;

export interface ConnGuardOptions {
  /** Opens a connection to the real HTTP server. */
  connectUpstream(): Promise<Deno.Conn>;
  maxConnections: number;
  headTimeoutMs: number;
  maxWsMessageBytes: number;
  logger: Logger;
}

export interface ConnGuard {
  /** Connections open now. */
  readonly open: number;
  /** Stops accepting (closes the listener) and waits for the accept loop to end. */
  stopAccepting(): Promise<void>;
  /** Closes every connection still open. */
  closeAll(): void;
}

export function guardConnections(listener: Deno.Listener, options: ConnGuardOptions): ConnGuard {
  const { logger } = options;
  const table = createConnTable<ProxiedConn>(options.maxConnections);
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastCapWarning = -Infinity;
  let evictions = 0;

  const sweepMs = Math.max(50, Math.min(1_000, Math.floor(options.headTimeoutMs / 4)));
  const sweep = setInterval(() => {
    for (const conn of table.expired(Date.now(), options.headTimeoutMs)) {
      conn.close(`no complete request head within ${options.headTimeoutMs} ms`);
    }
  }, sweepMs);

  function admit(client: Deno.Conn): void {
    if (table.size >= table.capacity) {
      const victim = table.victim();
      evictions++;
      warnAtCap();
      if (!victim) return closeQuietly(client);
      victim.close("evicted: connection limit reached");
    }
    try {
      (client as Deno.TcpConn).setNoDelay?.(true);
    } catch {
      // not TCP, or already gone
    }
    const conn = proxyConnection(client, {
      connectUpstream: options.connectUpstream,
      maxWsMessageBytes: options.maxWsMessageBytes,
      onClose(closed, reason) {
        table.remove(closed);
        if (reason) logger.debug(`Closed a connection: ${reason}`);
      },
    });
    table.add(conn);
    void conn.run();
  }

  function warnAtCap(): void {
    const now = Date.now();
    if (now - lastCapWarning < CAP_WARNING_INTERVAL_MS) return;
    lastCapWarning = now;
    logger.warn(
      `${table.capacity} connections open (the limit); closing the oldest unfinished ones to ` +
        `make room (${evictions} so far). A local process may be flooding the hub.`,
    );
  }

  async function acceptLoop(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      let client: Deno.Conn;
      try {
        client = await listener.accept();
      } catch (error) {
        if (stopped) return;
        if (failures++ === 0) {
          logger.warn(
            `Cannot accept a connection: ${bounded(error)}. Closing unfinished connections ` +
              "and retrying.",
          );
        }
        table.victim(true)?.close("evicted: cannot accept new connections");
        await pause(Math.min(MAX_ACCEPT_BACKOFF_MS, MIN_ACCEPT_BACKOFF_MS * 2 ** (failures - 1)));
        continue;
      }
      if (failures > 0) {
        logger.info(`Accepting connections again (after ${failures} failed attempts)`);
        failures = 0;
      }
      if (stopped) return closeQuietly(client);
      admit(client);
    }
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  const loop = acceptLoop().catch((error) => logger.error(`Accept loop ended: ${bounded(error)}`));

  return {
    get open() {
      return table.size;
    },
    async stopAccepting() {
      stopped = true;
      clearInterval(sweep);
      try {
        listener.close();
      } catch {
        // already closed
      }
      wake?.();
      await loop;
    },
    closeAll() {
      for (const conn of table.all()) conn.close();
    },
  };
}

function bounded(error: unknown): string {
  const text = String((error as Error)?.message ?? error);
  return text.length > MAX_LOGGED_ERROR_CHARS ? `${text.slice(0, MAX_LOGGED_ERROR_CHARS)}…` : text;
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
