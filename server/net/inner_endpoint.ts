/**
 * How one generation of the real HTTP server (`Deno.serve`) is started, on a unix socket or on an
 * ephemeral loopback port. On the port, any local process can connect: what did not come through
 * the connection guard is answered 403 and its connection closed.
 */
import type { Handler } from "./request_handler.ts";
import { mayUse, removeQuietly, socketFile } from "./inner_socket.ts";
import { errorBody, hubError, restStatus } from "../../protocol/errors.ts";

export interface Served {
  server: Deno.HttpServer;
  /** A new connection to this server, for one client connection. */
  connect(): Promise<Deno.Conn>;
  /** Removes its socket file, so nothing new reaches it. */
  unlink(): void;
}

export interface Endpoint {
  readonly transport: "unix" | "tcp";
  /**
   * Whether a server whose accept loop ended can keep serving the connections it has: on a unix
   * socket they are all the guard's; on a port, other processes may hold idle connections to it,
   * and only shutting it down gives their descriptors back.
   */
  readonly drainable: boolean;
  /** Starts the `generation`th server; throws when it cannot (out of descriptors). */
  start(generation: number): Served;
}

type OnError = (error: unknown) => Response;

export function unixEndpoint(
  handler: Handler,
  onError: OnError,
  dir: string,
  port: number,
): Endpoint {
  return {
    transport: "unix",
    drainable: true,
    start(generation) {
      let path = socketFile(dir, port, generation);
      if (!mayUse(path)) path = socketFile(dir, port, 0); // only the first name was granted
      removeQuietly(path); // left by a hub on this port that did not shut down
      const server = Deno.serve({ path, onListen: () => {}, onError }, (req) => handler(req));
      return {
        server,
        connect: () => Deno.connect({ transport: "unix", path }),
        unlink: () => removeQuietly(path),
      };
    },
  };
}

/** Fails a refusal's body on purpose, which makes `Deno.serve` close that connection. */
const REFUSED = new Error("connection closed after its 403");

/**
 * The answer to a peer that did not come through the guard: a 403 (WRONG_PORT, in the hub's JSON
 * error shape) with `connection: close`, whose body then fails on purpose, because `Deno.serve`
 * keeps a connection open whatever the response headers say but closes it when a response body
 * fails.
 */
function refusal(): Response {
  const error = hubError("WRONG_PORT", "Connect to the hub's own port.");
  const text = new TextEncoder().encode(JSON.stringify(errorBody(error)));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(REFUSED);
      sent = true;
      controller.enqueue(text);
    },
  });
  return new Response(body, {
    status: restStatus(error),
    headers: { connection: "close", "content-type": "application/json; charset=utf-8" },
  });
}

export function loopbackEndpoint(handler: Handler, onError: OnError): Endpoint {
  const proxied = new Set<number>(); // local ports of the guard's open upstream connections
  const guarded = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
    // The hostname too: another process may use the same source port from 127.0.0.2.
    info.remoteAddr.hostname === "127.0.0.1" && proxied.has(info.remoteAddr.port)
      ? handler(req)
      : refusal();
  const quietOnError = (error: unknown) =>
    error === REFUSED ? new Response(null, { status: 403 }) : onError(error);
  return {
    transport: "tcp",
    drainable: false,
    start() {
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {}, onError: quietOnError },
        guarded,
      );
      return {
        server,
        async connect() {
          const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
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
        unlink() {},
      };
    },
  };
}
