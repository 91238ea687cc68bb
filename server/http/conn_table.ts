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
  close(reason?: string): void;
}

export interface ConnTable<C extends TrackedConn> {
  readonly size: number;
  readonly capacity: number;
  add(conn: C): void;
  remove(conn: C): void;
  /**
   * Who gives way to a newcomer: the connection that has been sending a request head the longest;
   * without one (and unless `headPendingOnly`), the least recently active that is not a WebSocket.
   */
  victim(headPendingOnly?: boolean): C | undefined;
  /** Connections whose request head has been arriving for longer than `timeoutMs`. */
  expired(now: number, timeoutMs: number): C[];
  all(): C[];
}

export function createConnTable<C extends TrackedConn>(capacity: number): ConnTable<C> {
  const conns = new Set<C>();
  return {
    get size() {
      return conns.size;
    },
    capacity,
    add: (conn) => void conns.add(conn),
    remove: (conn) => void conns.delete(conn),
    victim(headPendingOnly = false) {
      let slowHead: C | undefined;
      let idle: C | undefined;
      for (const conn of conns) {
        if (conn.headSince !== undefined) {
          if (!slowHead || conn.headSince < slowHead.headSince!) slowHead = conn;
        } else if (!conn.upgraded && (!idle || conn.lastActive < idle.lastActive)) idle = conn;
      }
      return slowHead ?? (headPendingOnly ? undefined : idle);
    },
    expired(now, timeoutMs) {
      return [...conns].filter((c) => c.headSince !== undefined && now - c.headSince > timeoutMs);
    },
    all: () => [...conns],
  };
}
