/**
 * The door of server/net/, the hub's runtime glue: binds a handler to 127.0.0.1 and accepts the
 * extension's WebSocket upgrade, the only places the hub touches the network or the runtime's
 * servers. Nothing else in server/ imports a file of server/net/ but this one.
 * The public port is owned by the hub's own accept loop (server/net/conn_guard.ts), which caps and
 * ages connections and relays each one to `Deno.serve` behind it (server/net/inner_server.ts):
 * `Deno.serve` alone ends its accept loop for good on the first "too many open files" error.
 */
import type { Handler } from "./request_handler.ts";
import type { Logger } from "../log/logger_interface.ts";
import { type InnerServer, startInnerServer } from "./inner_server.ts";
import { guardConnections, REQUEST_HEAD_TIMEOUT_MS } from "./conn_guard.ts";
import { connectionCap } from "./conn_cap.ts";
import { openFileLimit } from "../../core/process/open_file_limit.ts";
import { MAX_FRAME_BYTES } from "../../protocol/rpc.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { withTimeout } from "../../protocol/with_timeout.ts";

export type { Handler };
export { connectionCap, FDS_PER_CONNECTION } from "./conn_cap.ts";

export interface RunningServer {
  hostname: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, and gives up waiting after `deadlineMs`. */
  shutdown(deadlineMs?: number): Promise<void>;
  /** Resolves once the server stopped. */
  finished: Promise<void>;
  /** Changes the connection cap: a higher one at once, a lower one for the next connections. */
  setMaxConnections(cap: number): void;
}

export interface ListenOptions {
  /**
   * The config dir: the internal unix socket goes in its `sockets/` folder (mode 0700). Without
   * it, a fresh private temp folder is used and removed at shutdown.
   */
  socketDir?: string;
  /** How long a client may take to send a complete request head; default 10 s. */
  headTimeoutMs?: number;
  /**
   * The connection cap; default `connectionCap(openFileLimit())`, which reads the limit only with
   * every permission (else assumes 256). `hub start` starts with the cap for 256 and sets the one
   * from `readOpenFileLimit()` once that has answered.
   */
  maxConnections?: number;
  /**
   * Whether a request head's `Authorization` or `Sec-WebSocket-Protocol` value carries the hub's
   * secret (compare in constant time). Connections that showed it are the last to give way at the
   * connection cap; without this, every connection is a stranger.
   */
  isTrusted?(authorization: string | undefined, wsProtocol: string | undefined): boolean;
}

/**
 * Turns a WebSocket upgrade request into its socket and the `101` response that completes the
 * handshake (`Deno.upgradeWebSocket`); throws when the request is not a valid upgrade.
 */
export function acceptWebSocket(
  req: Request,
  options: Deno.UpgradeWebSocketOptions,
): { socket: WebSocket; response: Response } {
  return Deno.upgradeWebSocket(req, options);
}

/** The error for a port that is taken; the message says how to pick another. */
export function portInUseError(port: number): UserError {
  return new UserError(
    `Port ${port} is already in use (is another hub running? try "hub status --port ${port}"). ` +
      `Stop that process, or start hub on another port: "hub start --port <number>" or PORT=<number>.`,
  );
}

export function listen(
  handler: Handler,
  port: number,
  logger: Logger,
  options: ListenOptions = {},
): RunningServer {
  const hostname = "127.0.0.1";
  let listener: Deno.TcpListener;
  try {
    listener = Deno.listen({ hostname, port });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) throw portInUseError(port);
    throw error;
  }
  const publicPort = listener.addr.port;
  let inner: InnerServer;
  try {
    inner = startInnerServer(handler, logger, publicPort, options.socketDir);
  } catch (error) {
    listener.close();
    throw error;
  }
  const guard = guardConnections(listener, {
    connectUpstream: inner.connect,
    maxConnections: options.maxConnections ?? connectionCap(openFileLimit()),
    headTimeoutMs: options.headTimeoutMs ?? REQUEST_HEAD_TIMEOUT_MS,
    maxWsMessageBytes: MAX_FRAME_BYTES,
    isTrusted: options.isTrusted,
    logger,
  });
  let stopped: () => void;
  const finished = new Promise<void>((resolve) => (stopped = resolve));
  return {
    hostname,
    port: publicPort,
    finished,
    setMaxConnections: (cap) => guard.setMaxConnections(cap),
    async shutdown(deadlineMs = 5_000) {
      await guard.stopAccepting();
      await withTimeout(inner.shutdown().catch(() => {}), deadlineMs, undefined);
      guard.closeAll();
      inner.cleanup();
      stopped();
    },
  };
}
