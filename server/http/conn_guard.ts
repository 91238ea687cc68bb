/**
 * The hub's own accept loop on the public port. It survives accept errors (out of descriptors
 * included), keeps at most a capped number of connections, closes connections whose request head
 * is not complete within a short timeout (slowloris), and relays every connection to the real HTTP
 * server through a proxy that refuses oversized WebSocket messages from their frame headers.
 *
 * At the cap a newcomer takes the place of, in this order: the connection that has been sending a
 * request head the longest; the least recently active connection that never showed the hub's
 * secret; the least recently active authenticated one. WebSockets never give way. So a flood of
 * strangers takes its own connections, not an agent's stream waiting minutes for a tool's result.
 */
import type { Logger } from "../log/logger.ts";
import { errorText } from "../../protocol/clip.ts";
import { createConnTable } from "./conn_table.ts";
import { type ProxiedConn, proxyConnection, type ProxyDeps } from "./proxied_conn.ts";
import { closeQuietly } from "./conn_io.ts";

/** A client has this long to send a complete request head (after connecting or after its first byte). */
export const REQUEST_HEAD_TIMEOUT_MS = 10_000;
/** Accept errors back off from this to MAX_ACCEPT_BACKOFF_MS, doubling. */
const MIN_ACCEPT_BACKOFF_MS = 10;
const MAX_ACCEPT_BACKOFF_MS = 1_000;
/** At most one warning about the connection cap per this period. */
const CAP_WARNING_INTERVAL_MS = 60_000;

export interface ConnGuardOptions {
  /** Opens a connection to the real HTTP server. */
  connectUpstream(): Promise<Deno.Conn>;
  maxConnections: number;
  headTimeoutMs: number;
  maxWsMessageBytes: number;
  /** Whether a request head's credentials carry the hub's secret; without it nobody is trusted. */
  isTrusted?: ProxyDeps["isTrusted"];
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
  const guard = new Guard(listener, options);
  return {
    get open() {
      return guard.table.size;
    },
    stopAccepting: () => guard.stop(),
    closeAll: () => guard.closeAll(),
  };
}

class Guard {
  readonly table;
  readonly #sweep: ReturnType<typeof setInterval>;
  readonly #loop: Promise<void>;
  readonly #deps: ProxyDeps;
  #stopped = false;
  #wake: (() => void) | undefined;
  #lastCapWarning = -Infinity;
  #evictions = 0;

  constructor(readonly listener: Deno.Listener, readonly options: ConnGuardOptions) {
    this.table = createConnTable<ProxiedConn>(options.maxConnections);
    this.#deps = {
      connectUpstream: options.connectUpstream,
      maxWsMessageBytes: options.maxWsMessageBytes,
      isTrusted: options.isTrusted,
      onClose: (closed, reason) => {
        this.table.remove(closed);
        if (reason) options.logger.debug(`Closed a connection: ${reason}`);
      },
    };
    const sweepMs = Math.max(50, Math.min(1_000, Math.floor(options.headTimeoutMs / 4)));
    this.#sweep = setInterval(() => this.#closeExpired(), sweepMs);
    this.#loop = this.#acceptLoop().catch((error) =>
      options.logger.error(`Accept loop ended: ${errorText(error)}`)
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweep);
    try {
      this.listener.close();
    } catch {
      // already closed
    }
    this.#wake?.();
    await this.#loop;
  }

  closeAll(): void {
    for (const conn of this.table.all()) conn.close();
  }

  #closeExpired(): void {
    const timeout = this.options.headTimeoutMs;
    for (const conn of this.table.expired(Date.now(), timeout)) {
      conn.close(`no complete request head within ${timeout} ms`);
    }
  }

  async #acceptLoop(): Promise<void> {
    let failures = 0;
    while (!this.#stopped) {
      let client: Deno.Conn;
      try {
        client = await this.listener.accept();
      } catch (error) {
        if (this.#stopped) return;
        await this.#acceptFailed(error, failures++);
        continue;
      }
      if (failures > 0) {
        this.options.logger.info(`Accepting connections again (after ${failures} failed attempts)`);
        failures = 0;
      }
      if (this.#stopped) return closeQuietly(client);
      this.#admit(client);
    }
  }

  /**
   * Out of descriptors (or another accept error): frees some by closing a connection that is still
   * sending its head or never showed the secret, then waits a little longer each time.
   */
  async #acceptFailed(error: unknown, failures: number): Promise<void> {
    if (failures === 0) {
      this.options.logger.warn(
        `Cannot accept a connection: ${errorText(error)}. Closing unfinished and ` +
          "unauthenticated connections and retrying.",
      );
    }
    this.table.victim("untrusted")?.close("evicted: cannot accept new connections");
    await this.#pause(Math.min(MAX_ACCEPT_BACKOFF_MS, MIN_ACCEPT_BACKOFF_MS * 2 ** failures));
  }

  #admit(client: Deno.Conn): void {
    if (this.table.size >= this.table.capacity) {
      const victim = this.table.victim();
      this.#evictions++;
      this.#warnAtCap();
      if (!victim) return closeQuietly(client);
      victim.close("evicted: connection limit reached");
    }
    try {
      (client as Deno.TcpConn).setNoDelay?.(true);
    } catch {
      // not TCP, or already gone
    }
    const conn = proxyConnection(client, this.#deps);
    this.table.add(conn);
    void conn.run();
  }

  #warnAtCap(): void {
    const now = Date.now();
    if (now - this.#lastCapWarning < CAP_WARNING_INTERVAL_MS) return;
    this.#lastCapWarning = now;
    this.options.logger.warn(
      `${this.table.capacity} connections open (the limit); each new one replaces an unfinished ` +
        "request, else the least recently active connection that did not send the secret, and " +
        "only then an authenticated one (WebSockets stay). " +
        `${this.#evictions} closed so far. A local process may be flooding the hub.`,
    );
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }
}
