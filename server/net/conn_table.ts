/**
 * The bookkeeping of open client connections: how many there are, which ones are still sending a
 * request head and since when, and which one gives way when a newcomer arrives at the cap.
 */
import { FDS_PER_CONNECTION } from "./conn_cap.ts";

/** What the table knows of a connection; the proxy keeps these fields current. */
export interface TrackedConn {
  /** Last time a byte passed in either direction (ms). */
  lastActive: number;
  /** Since when the connection has been sending a request head that is not complete, if it is. */
  headSince: number | undefined;
  /** Not one byte has arrived from the client yet (an idle socket, or one not read yet). */
  silent: boolean;
  /** A WebSocket: it pings by itself and is never evicted. */
  upgraded: boolean;
  /** A request head on it carried the hub's secret: given way last. */
  trusted: boolean;
  /** Closed, waiting for the server to close its side: still holds descriptors, never a victim. */
  closing: boolean;
  close(reason?: string): void;
}

/**
 * Which connections may give way: all but WebSockets, only those that never showed the secret, or
 * only those still sending their head (silent ones included).
 */
export type VictimScope = "any" | "untrusted" | "head-pending";

export interface ConnTable<C extends TrackedConn> {
  /** Connections in the table, closing ones included. */
  readonly size: number;
  /** Connections that are not closing. */
  readonly live: number;
  /**
   * The descriptors the live connections may hold: FDS_PER_CONNECTION for one that has sent a
   * byte (its relay to the server included), one for a silent one (its socket alone). So the cap
   * holds FDS_PER_CONNECTION times more idle sockets than busy connections, and an idle flood
   * churns that much slower. A running count (no walk over the connections): the owner calls
   * `refresh` when a connection's `silent` or `closing` changes.
   */
  readonly descriptors: number;
  /** The cap, in connections that sent a byte; `capacity * FDS_PER_CONNECTION` descriptors. */
  capacity: number;
  add(conn: C): void;
  remove(conn: C): void;
  /** `conn`'s `silent` or `closing` changed: what it holds is counted again. */
  refresh(conn: C): void;
  /**
   * Who gives way to a newcomer, in this order: the connection that has been sending a request
   * head the longest (for more than the grace period); then the silent one accepted first (no byte
   * yet: an idle socket); then the least recently active one that never showed the secret; then
   * the least recently active trusted one. Never a WebSocket nor a closing one. `scope` stops the
   * search early.
   */
  victim(scope?: VictimScope, now?: number): C | undefined;
  /**
   * Whether `conn` is silent and was added after the last `settle()`: its client may well have
   * sent its request already, and the bytes wait to be read. Such a victim must wait until the
   * event loop has had a turn to read them (then `settle()`), or an idle flood accepted faster
   * than reads complete would evict real clients before their first byte is seen.
   */
  unread(conn: C): boolean;
  /** Every connection in the table has had a turn to be read. */
  settle(): void;
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
  /** Each connection and the descriptors it was last counted for (0: closing, not live). */
  const conns = new Map<C, number>();
  let fresh = new Set<C>();
  let live = 0;
  let descriptors = 0;
  const count = (conn: C, sign: 1 | -1) => {
    const fds = sign > 0 ? held(conn) : conns.get(conn) ?? 0;
    if (sign > 0) conns.set(conn, fds);
    descriptors += sign * fds;
    if (fds > 0) live += sign;
  };
  return {
    get size() {
      return conns.size;
    },
    get live() {
      return live;
    },
    get descriptors() {
      return descriptors;
    },
    capacity,
    add(conn) {
      if (conns.has(conn)) return;
      count(conn, 1);
      fresh.add(conn);
    },
    remove(conn) {
      if (!conns.has(conn)) return;
      count(conn, -1);
      conns.delete(conn);
      fresh.delete(conn);
    },
    refresh(conn) {
      if (!conns.has(conn)) return;
      count(conn, -1);
      count(conn, 1);
    },
    victim(scope = "any", now = Date.now()) {
      let slowHead: C | undefined;
      let silent: C | undefined;
      let stranger: C | undefined;
      let trusted: C | undefined;
      for (const conn of conns.keys()) {
        if (conn.closing || conn.upgraded) continue;
        if (conn.headSince !== undefined && now - conn.headSince >= headGraceMs) {
          if (!slowHead || conn.headSince < slowHead.headSince!) slowHead = conn;
        } else if (conn.silent) silent = leastActive(silent, conn);
        else if (!conn.trusted) stranger = leastActive(stranger, conn);
        else trusted = leastActive(trusted, conn);
      }
      const pending = slowHead ?? silent;
      if (pending || scope === "head-pending") return pending;
      return stranger ?? (scope === "untrusted" ? undefined : trusted);
    },
    unread: (conn) => conn.silent && fresh.has(conn),
    settle() {
      fresh = new Set();
    },
    expired(now, timeoutMs) {
      return [...conns.keys()].filter((c) =>
        !c.closing && c.headSince !== undefined && now - c.headSince > timeoutMs
      );
    },
    all: () => [...conns.keys()],
  };
}

/** The descriptors `conn` holds of the live count now. */
function held(conn: TrackedConn): number {
  if (conn.closing) return 0;
  return conn.silent ? 1 : FDS_PER_CONNECTION;
}

function leastActive<C extends TrackedConn>(best: C | undefined, conn: C): C {
  return !best || conn.lastActive < best.lastActive ? conn : best;
}
