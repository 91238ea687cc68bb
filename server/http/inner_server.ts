/**
 * The real HTTP server (`Deno.serve`) behind the connection guard. Only the guard should reach it:
 *
 * - on a unix socket in `<config dir>/sockets/` (folder mode 0700) when the process may use one
 *   (Deno asks for `--allow-net=unix:<path>`; `--allow-all` grants it);
 * - otherwise (the scoped permission set names no socket path, or Windows) on an ephemeral
 *   loopback port. Any local process can connect there, so requests that did not come through the
 *   guard are refused (403), and when a flood there ends `Deno.serve`'s accept loop, the old
 *   server is shut down (which frees the idle connections it held) and a new one takes over on a
 *   fresh port.
 */
import { join } from "node:path";
import type { Logger } from "../log/logger.ts";
import type { Handler } from "./handler.ts";
import { errorResponse, HttpError } from "./http_error.ts";

export interface InnerServer {
  readonly transport: "unix" | "tcp";
  /** A new connection to the server, for one client connection. */
  connect(): Promise<Deno.Conn>;
  /** Graceful shutdown of the server (and of any it replaced that still finish requests). */
  shutdown(): Promise<void>;
  /** Removes the socket file (and the temp folder it was in). */
  cleanup(): void;
}

/** sun_path holds 108 bytes on Linux and 104 on macOS. */
const MAX_SOCKET_PATH_BYTES = 100;
const RESTART_DELAY_MS = 100;

export function startInnerServer(
  handler: Handler,
  logger: Logger,
  publicPort: number,
  configDir: string | undefined,
): InnerServer {
  const onError = (error: unknown) => {
    logger.error(`Unhandled request error: ${(error as Error)?.message ?? error}`);
    return errorResponse(new HttpError(500, "INTERNAL", "Internal error; see server.log."));
  };
  const socket = socketPath(configDir, publicPort);
  if (!socket) return serveOnLoopback(handler, logger, onError);
  removeQuietly(socket.path); // left by a hub on this port that did not shut down
  const server = Deno.serve(
    { path: socket.path, onListen: () => {}, onError },
    (req) => handler(req),
  );
  server.finished.catch((error) => {
    logger.error(`The HTTP server stopped: ${String(error?.message ?? error).slice(0, 200)}`);
  });
  return {
    transport: "unix",
    connect: () => Deno.connect({ transport: "unix", path: socket.path }),
    shutdown: () => server.shutdown(),
    cleanup() {
      removeQuietly(socket.path);
      if (socket.tempDir) removeQuietly(socket.tempDir);
    },
  };
}

function serveOnLoopback(
  handler: Handler,
  logger: Logger,
  onError: (error: unknown) => Response,
): InnerServer {
  const proxied = new Set<number>(); // local ports of the guard's open upstream connections
  const servers = new Set<Deno.HttpServer<Deno.NetAddr>>();
  let current: Deno.HttpServer<Deno.NetAddr>;
  let stopping = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const guarded = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
    // The hostname too: another process may use the same source port from 127.0.0.2.
    info.remoteAddr.hostname === "127.0.0.1" && proxied.has(info.remoteAddr.port)
      ? handler(req)
      : new Response("Connect to the hub's own port.\n", { status: 403 });

  function start(): void {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, onError },
      guarded,
    );
    current = server;
    servers.add(server);
    server.finished.then(() => servers.delete(server), (error) => {
      servers.delete(server);
      if (stopping) return;
      logger.warn(
        `The internal HTTP server stopped accepting (${
          String(error?.message ?? error).slice(0, 200)
        }); ` +
          "starting a new one.",
      );
      server.shutdown().catch(() => {}); // frees the idle connections it still holds
      restart();
    });
  }

  function restart(): void {
    retry = setTimeout(() => {
      retry = undefined;
      if (stopping) return;
      try {
        start();
      } catch {
        restart(); // out of descriptors for a moment: try again shortly
      }
    }, RESTART_DELAY_MS);
  }

  start();
  return {
    transport: "tcp",
    async connect() {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: current.addr.port });
      conn.setNoDelay(true);
      const port = conn.localAddr.port;
      proxied.add(port);
      const close = conn.close.bind(conn);
      conn.close = () => {
        proxied.delete(port);
        close();
      };
      return conn;
    },
    async shutdown() {
      stopping = true;
      clearTimeout(retry);
      await Promise.all([...servers].map((server) => server.shutdown().catch(() => {})));
    },
    cleanup() {},
  };
}

/** A private socket path, or undefined when unix sockets cannot be used here. */
function socketPath(configDir: string | undefined, port: number) {
  if (Deno.build.os === "windows") return undefined;
  const name = `http-${port}.sock`;
  const candidates = configDir ? [join(configDir, "sockets", name)] : [];
  let tempDir: string | undefined;
  if (candidates.length === 0 || tooLong(candidates[0])) {
    tempDir = Deno.makeTempDirSync({ prefix: "hub-" }); // mode 0700
    candidates[0] = join(tempDir, name);
  }
  const path = candidates[0];
  const allowed = Deno.permissions.querySync({ name: "net", host: `unix:${path}` }).state;
  if (tooLong(path) || allowed !== "granted") {
    if (tempDir) removeQuietly(tempDir);
    return undefined;
  }
  if (!tempDir) {
    const dir = join(configDir!, "sockets");
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
  }
  return { path, tempDir };
}

function tooLong(path: string): boolean {
  return new TextEncoder().encode(path).length > MAX_SOCKET_PATH_BYTES;
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // not there
  }
}
