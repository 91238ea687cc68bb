/**
 * The hub's own accept loop on the public port. It survives accept errors (out of descriptors
 * included), keeps at most a capped number of connections, closes connections whose request head
 * is not complete within a short timeout (slowloris), and relays every connection to the real HTTP
 * server through a proxy that refuses oversized WebSocket messages from their frame headers.
 *
 * The cap counts descriptors: a connection that has sent nothing yet holds one, a busy one up to
 * FDS_PER_CONNECTION. At the cap a newcomer takes the place of, in this order: the connection that
 * has been sending a request head the longest; the silent one accepted first; the least recently
 * active connection that never showed the hub's secret; the least recently active authenticated
 * one. WebSockets never give way. So a flood of strangers takes its own connections, not an
 * agent's stream waiting minutes for a tool's result. A silent connection gives way only after the
 * event loop had a turn to read it, so a client whose request already arrived is never taken for
 * an idle socket, however fast a flood is accepted.
 * A connection closed by the guard stays counted until the real server has closed its side too,
 * so a flood that churns connections cannot pile up descriptors the server has not freed yet.
 */
import type { Logger } from "../log/logger_interface.ts";
import { errorText } from "../../protocol/clip.ts";
import { createConnTable } from "./conn_table.ts";
import { type ProxiedConn, proxyConnection, type ProxyDeps } from "./proxied_conn.ts";
import { closeQuietly } from "./conn_io.ts";
import { closingCapacity, FDS_PER_CONNECTION } from "./conn_cap.ts";

/** A client has this long to send a complete request head (after connecting or after its first byte). */
export const REQUEST_HEAD_TIMEOUT_MS = 10_000;
/** Accept errors back off from this to MAX_ACCEPT_BACKOFF_MS, doubling. */
const MIN_ACCEPT_BACKOFF_MS = 10;
const MAX_ACCEPT_BACKOFF_MS = 1_000;
/** At most one warning about the connection cap (and one about accept errors) per this period. */
const CAP_WARNING_INTERVAL_MS = 60_000;
/**
 * The accept loop lets the event loop run after this many accepts: one turn completes at most 128
 * reads, so the reads of the connections accepted meanwhile (and the closes of their victims) fit.
 */
const ACCEPTS_PER_TURN = 32;
/** A fresh connection is not a slow head at the cap before this (or a tenth of the timeout). */
const HEAD_GRACE_MS = 500;

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
  /** Changes the cap: a higher one at once, a lower one for the connections that come next. */
  setMaxConnections(cap: number): void;
}

export function guardConnections(listener: Deno.Listener, options: ConnGuardOptions): ConnGuard {
  const guard = new Guard(listener, options);
  return {
    get open() {
      return guard.table.size;
    },
    stopAccepting: () => guard.stop(),
    closeAll: () => guard.closeAll(),
    setMaxConnections: (cap) => guard.setCapacity(cap),
  };
}

class Guard {
  readonly table;
  readonly #sweep: ReturnType<typeof setInterval>;
  readonly #loop: Promise<void>;
  readonly #deps: ProxyDeps;
  #stopped = false;
  #wake: (() => void) | undefined;
  #slotFreed: (() => void) | undefined;
  #lastCapWarning = -Infinity;
  /** Connections accepted since the event loop last had a turn (see #turn). */
  #sinceTurn = 0;
  #evictions = 0;
  #lastAcceptWarning = -Infinity;
  #lastAcceptRecovery = -Infinity;
  /** Accept errors since the last warning about them, and since the last "accepting again". */
  #acceptErrors = { warned: 0, recovered: 0 };

  constructor(readonly listener: Deno.Listener, readonly options: ConnGuardOptions) {
    const grace = Math.min(HEAD_GRACE_MS, Math.floor(options.headTimeoutMs / 10));
    this.table = createConnTable<ProxiedConn>(options.maxConnections, grace);
    this.#deps = {
      connectUpstream: options.connectUpstream,
      maxWsMessageBytes: options.maxWsMessageBytes,
      isTrusted: options.isTrusted,
      onClose: (closed, reason) => {
        this.table.remove(closed);
        this.#slotFreed?.();
        if (reason) options.logger.debug(`Closed a connection: ${reason}`);
      },
      // A silent connection that speaks needs FDS_PER_CONNECTION - 1 more descriptors.
      onFirstBytes: (conn) => {
        this.table.refresh(conn);
        return this.#overBudget(0) ? this.#makeRoom(0, FDS_PER_CONNECTION - 1, conn) : undefined;
      },
      onClosing: (conn) => this.table.refresh(conn),
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

  /** A paused accept loop looks again at once: a higher cap may let it go on. */
  setCapacity(cap: number): void {
    this.table.capacity = cap;
    this.#slotFreed?.();
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
      if (this.#closingFull()) {
        await this.#waitForSlot();
        continue;
      }
      let client: Deno.Conn;
      try {
        client = await this.listener.accept();
      } catch (error) {
        if (this.#stopped) return;
        await this.#acceptFailed(error, failures++);
        continue;
      }
      if (failures > 0) this.#recovered();
      failures = 0;
      if (this.#stopped) return closeQuietly(client);
      await this.#admit(client);
      if (++this.#sinceTurn >= ACCEPTS_PER_TURN) await this.#turn();
    }
  }

  /**
   * Lets the event loop run. `accept()` answers at once while connections wait in the system's
   * queue, so under a flood the loop would otherwise go on accepting (and evicting) without ever
   * letting the server answer or a client's first bytes be read.
   */
  async #turn(): Promise<void> {
    this.#sinceTurn = 0;
    await readTurn();
    this.table.settle();
  }

  /**
   * Out of descriptors (or another accept error): frees some by closing a connection that is still
   * sending its head or never showed the secret, then waits a little longer each time.
   */
  async #acceptFailed(error: unknown, failures: number): Promise<void> {
    this.#acceptErrors.warned++;
    this.#acceptErrors.recovered++;
    const now = Date.now();
    if (failures === 0 && now - this.#lastAcceptWarning >= CAP_WARNING_INTERVAL_MS) {
      this.#lastAcceptWarning = now;
      this.options.logger.warn(
        `Cannot accept a connection: ${errorText(error)} (${this.#acceptErrors.warned} failed ` +
          "attempts since the last such warning). Closing unfinished and unauthenticated " +
          "connections and retrying.",
      );
      this.#acceptErrors.warned = 0;
    }
    this.table.victim("untrusted")?.close("evicted: cannot accept new connections");
    await this.#pause(Math.min(MAX_ACCEPT_BACKOFF_MS, MIN_ACCEPT_BACKOFF_MS * 2 ** failures));
  }

  /** At most once a minute, so that a storm of accept errors cannot push the log's history out. */
  #recovered(): void {
    const now = Date.now();
    if (now - this.#lastAcceptRecovery < CAP_WARNING_INTERVAL_MS) return;
    this.#lastAcceptRecovery = now;
    this.options.logger.info(
      `Accepting connections again (${this.#acceptErrors.recovered} failed attempts since the ` +
        "last such message)",
    );
    this.#acceptErrors.recovered = 0;
  }

  /**
   * Whether as many closed connections wait for the server to close its side as half the cap: then
   * nothing is accepted until one of them is done. New clients wait in the kernel's queue (holding
   * no descriptor of ours, and in order), and the server's descriptors stay bounded however fast a
   * flood churns (see conn_cap.ts).
   */
  #closingFull(): boolean {
    return this.table.size - this.table.live >= closingCapacity(this.table.capacity);
  }

  /** Until a connection in the table is done, or the guard stops. */
  #waitForSlot(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#slotFreed = undefined;
        if (this.#wake === done) this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, MAX_ACCEPT_BACKOFF_MS);
      this.#slotFreed = done;
      this.#wake = done;
    });
  }

  /** Takes a new connection, replacing a victim at the cap (it stays counted while it closes). */
  async #admit(client: Deno.Conn): Promise<void> {
    if (this.#overBudget(1) && !await this.#makeRoom(1, 1)) return closeQuietly(client);
    try {
      (client as Deno.TcpConn).setNoDelay?.(true);
    } catch {
      // not TCP, or already gone
    }
    const conn = proxyConnection(client, this.#deps);
    this.table.add(conn);
    void conn.run();
  }

  /** Whether `more` descriptors would take the live connections over the cap's. */
  #overBudget(more: number): boolean {
    return this.table.descriptors + more > this.table.capacity * FDS_PER_CONNECTION;
  }

  /**
   * Closes up to `most` victims (never `keep`) until `more` descriptors fit; false when none could
   * give way. A silent victim that has not had a turn to be read (see `unread`) is spared until the
   * event loop has read what already arrived: a flood's accepts come faster than reads complete,
   * and a real client's request would lose its place before the guard has seen a byte of it.
   */
  async #makeRoom(more: number, most: number, keep?: ProxiedConn): Promise<boolean> {
    let closed = 0;
    while (closed < most && this.#overBudget(more)) {
      const victim = this.table.victim();
      if (victim && this.table.unread(victim)) {
        await this.#turn();
        continue;
      }
      this.#warnAtCap();
      if (!victim || victim === keep) return false;
      this.#evictions++;
      victim.close("evicted: connection limit reached");
      closed++;
    }
    return true;
  }

  #warnAtCap(): void {
    const now = Date.now();
    if (now - this.#lastCapWarning < CAP_WARNING_INTERVAL_MS) return;
    this.#lastCapWarning = now;
    this.options.logger.warn(
      `${this.table.capacity} connections open (the limit; idle ones count a quarter); each new ` +
        "one replaces an unfinished request or an idle connection, else the least recently active " +
        "connection that did not send the secret, and only then an authenticated one (WebSockets " +
        "stay). " +
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

/** One turn of the event loop: reads whose bytes already arrived complete before it ends. */
function readTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
