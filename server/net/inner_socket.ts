/**
 * Where the internal unix socket lives: `<config dir>/sockets/http-<port>[-<n>].sock` (folder mode
 * 0700), or a private temp folder when that path is too long for a socket. Socket files left by
 * hubs that crashed are removed at start; a socket that still accepts a connection is left alone.
 */
import { join } from "node:path";

/** sun_path holds 108 bytes on Linux and 104 on macOS (room kept for a restart's suffix). */
const MAX_SOCKET_PATH_BYTES = 100;
/** Only the names hub gives its sockets are ever removed. */
const SOCKET_NAME = /^http-\d{1,5}(-\d{1,6})?\.sock$/;

export interface SocketDir {
  dir: string;
  /** A temp folder made for this hub, removed at shutdown. */
  temp: boolean;
}

/** The socket folder, or undefined when unix sockets cannot be used here (Windows, permissions). */
export function socketDir(configDir: string | undefined, port: number): SocketDir | undefined {
  if (Deno.build.os === "windows") return undefined;
  let dir = configDir ? join(configDir, "sockets") : undefined;
  let temp = false;
  if (!dir || tooLong(socketFile(dir, port, 0))) {
    dir = Deno.makeTempDirSync({ prefix: "hub-" }); // mode 0700
    temp = true;
  }
  if (tooLong(socketFile(dir, port, 0)) || !mayUse(socketFile(dir, port, 0))) {
    if (temp) removeQuietly(dir);
    return undefined;
  }
  if (!temp) {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
  }
  return { dir, temp };
}

/** The socket of the `generation`th server on `port` (0: the first one). */
export function socketFile(dir: string, port: number, generation: number): string {
  return join(dir, generation === 0 ? `http-${port}.sock` : `http-${port}-${generation}.sock`);
}

/** Whether this process may listen on and connect to `path`. */
export function mayUse(path: string): boolean {
  if (tooLong(path)) return false;
  return Deno.permissions.querySync({ name: "net", host: `unix:${path}` }).state === "granted";
}

/** Removes hub socket files in `dir` that no process accepts connections on any more. */
export async function removeStaleSockets(dir: string): Promise<void> {
  let names: string[];
  try {
    names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
  } catch {
    return; // no folder yet
  }
  for (const name of names.filter((n) => SOCKET_NAME.test(n))) {
    const path = join(dir, name);
    if (!mayUse(path)) continue;
    try {
      (await Deno.connect({ transport: "unix", path })).close(); // a running hub's: leave it
    } catch (error) {
      if (error instanceof Deno.errors.ConnectionRefused) removeQuietly(path);
    }
  }
}

export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // not there
  }
}

function tooLong(path: string): boolean {
  return new TextEncoder().encode(path).length > MAX_SOCKET_PATH_BYTES;
}
