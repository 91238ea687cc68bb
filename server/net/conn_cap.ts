/**
 * How many client connections the hub keeps open at once, derived from the process's soft limit
 * on open files so that a flood of connections can never use up the descriptors the hub needs for
 * its files, child processes and the connections it already serves.
 */

/**
 * Each proxied connection holds three descriptors: the client, our upstream end, the server's. A
 * closed one holds two until the server has closed its side, and up to half the cap may be closing:
 * four per connection in all.
 */
export const FDS_PER_CONNECTION = 4;
/** Legitimate use is a few agents and one browser; more than this is a flood. */
export const MAX_CONNECTIONS_CEILING = 1024;
const MIN_CONNECTIONS = 8;

/**
 * The connection cap for an open-file limit: a quarter of the descriptors (at least 64) stay
 * free for files, plugins, npm and esbuild children; the rest is shared by connections.
 */
export function connectionCap(openFiles: number): number {
  const reserve = Math.max(64, Math.floor(openFiles / 4));
  const cap = Math.floor((openFiles - reserve) / FDS_PER_CONNECTION);
  return Math.min(MAX_CONNECTIONS_CEILING, Math.max(MIN_CONNECTIONS, cap));
}

/** How many closed connections may wait for the server to close its side at once. */
export function closingCapacity(cap: number): number {
  return Math.max(1, Math.ceil(cap / 2));
}
