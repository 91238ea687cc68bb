/**
 * The loopback host names hub listens on and accepts, spelled as a URL's `hostname` and a Host
 * header's host spell them (IPv6 in brackets). One list for the server's Host guard, the MCP
 * client entries `hub doctor` recognises as pointing at hub, and where a telemetry endpoint
 * override may go.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** `host` (lower case, IPv6 in brackets) is one of LOOPBACK_HOSTS. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}
