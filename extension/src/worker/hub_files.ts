/**
 * The two files the hub writes into the installed extension folder: `server.json` (the port the
 * hub listens on) and `auth.json` (the shared secret). An unpacked extension reads its own files
 * from disk on every fetch, so a new port or a rotated secret is seen on the next connection.
 */

export interface HubAddress {
  port: number;
  secret: string;
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  const response = await fetch(chrome.runtime.getURL(file), { cache: "no-store" });
  if (!response.ok) throw new Error(`${file} is missing (HTTP ${response.status})`);
  try {
    return await response.json();
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
}

/** Reads port and secret; throws a message that says what to do when either is unusable. */
export async function readHubAddress(): Promise<HubAddress> {
  const [server, auth] = await Promise.all([readJson("server.json"), readJson("auth.json")]);
  const port = server.port;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error('server.json has no valid "port"; run "hub start" to rewrite it');
  }
  const secret = auth.secret;
  if (typeof secret !== "string" || !/^[0-9a-f]{64}$/i.test(secret)) {
    throw new Error('auth.json has no valid "secret"; run "hub start" to create one');
  }
  return { port, secret };
}

/** The WebSocket URL: always 127.0.0.1 (localhost may resolve to ::1, where the hub is not). */
export function socketUrl(port: number): string {
  return `ws://127.0.0.1:${port}/ws`;
}
