/**
 * The bookkeeping of open client connections: how many there are, which ones are still sending a
 * request head and since when, and which one gives way when a newcomer arrives at the cap.
 */

/** What the table knows of a connection; the proxy keeps these fields current. */
export interface TrackedConn {
  /** Last time a byte passed in either direction (ms). */
  lastActive: number;
  /** Since when the connection has been sending a request head that is not complete, if it is. */
  headSince: number | undefined;
  /** A WebSocket: it pings by itself and is never evicted. */
  upgraded: boolean;
  /** A request head on it carried the hub's secret: given way last. */
  trusted: boolean;
  /** Closed, waiting for the server to close its side: still holds descriptors, never a victim. */
  closing: boolean;
  close(reason?: string): void;
}

/** Which connections may give way: all but WebSockets, or only the ones named. */
export type VictimScope = "any" | "untrusted" | "head-pending";

export interface ConnTable<C extends TrackedConn> {
  /** Connections in the table, closing ones included. */
  readonly size: number;
  /** Connections that are not closing. */
  readonly live: number;
  /** The cap; a lower one applies as connections end (none is closed to reach it). */
  capacity: number;
  add(conn: C): void;
  remove(conn: C): void;
  /**
   * Who gives way to a newcomer, in this order: the connection that has been sending a request
   * head the longest (for more than the grace period: a client just accepted is still sending it);
   * then the least recently active one that never showed the secret; then the least recently
   * active trusted one. Never a WebSocket nor a closing one. `scope` stops the search early.
   */
  victim(scope?: VictimScope, now?: number): C | undefined;
  /** Connections whose request head has been arriving for longer than `timeoutMs`. */
  expired(now: number, timeoutMs: number): C[];
  all(): C[];
}

/**
 * `headGraceMs`: how long a connection may be sending its request head before it counts as a slow
 * one at the cap (a fresh client has not been read yet; it must not lose to a flood's finished ones).
 */
export function createConnTable<C extends TrackedConn>(
  capacity: number,
  headGraceMs = 0,
): ConnTable<C> {
  const conns = new Set<C>();
  return {
    get size() {
      return conns.size;
    },
    get live() {
      let live = 0;
      for (const conn of conns) if (!conn.closing) live++;
      return live;
    },
    capacity,
    add: (conn) => void conns.add(conn),
    remove: (conn) => void conns.delete(conn),
    victim(scope = "any", now = Date.now()) {
      let slowHead: C | undefined;
      let stranger: C | undefined;
      let trusted: C | undefined;
      for (const conn of conns) {
        if (conn.closing || conn.upgraded) continue;
        if (conn.headSince !== undefined && now - conn.headSince >= headGraceMs) {
          if (!slowHead || conn.headSince < slowHead.headSince!) slowHead = conn;
        } else if (!conn.trusted) stranger = leastActive(stranger, conn);
        else trusted = leastActive(trusted, conn);
      }
      if (slowHead || scope === "head-pending") return slowHead;
      return stranger ?? (scope === "untrusted" ? undefined : trusted);
    },
    expired(now, timeoutMs) {
      return [...conns].filter((c) =>
        !c.closing && c.headSince !== undefined && now - c.headSince > timeoutMs
      );
    },
    all: () => [...conns],
  };
}

function leastActive<C extends TrackedConn>(best: C | undefined, conn: C): C {
  return !best || conn.lastActive < best.lastActive ? conn : best;
}
