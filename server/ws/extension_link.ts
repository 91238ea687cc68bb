/**
 * The hub's end of the `/ws` link to the extension. It keeps the socket: one active connection (a
 * newer one replaces it, closing it with code 4000), its outbox (outbox.ts), and the connect and
 * disconnect listeners. The JSON-RPC work (ids, waiting requests,
 * handlers with validated params, replies, bad frames) is the shared engine's
 * (protocol/rpc_engine.ts), one per socket. What went wrong on an open link becomes the error a
 * tool call fails with in `linkError`; a call with no link at all fails in
 * server/calls/extension_requests.ts (`notConnectedError`).
 */
import {
  EXTENSION_TO_HUB_METHODS,
  HUB_TO_EXTENSION_METHODS,
  type ServerMethod,
  type ServerParams,
} from "../../protocol/events.ts";
import { CLOSE_REPLACED, RpcError } from "../../protocol/rpc.ts";
import {
  createRpcEngine,
  type RpcEngine,
  RpcTransportError,
  type SentParams,
} from "../../protocol/rpc_engine.ts";
import type { Logger } from "../log/logger_interface.ts";
import { hubError } from "../../protocol/errors.ts";
import { createOutbox, type LinkSocket } from "./outbox.ts";
import { notConnectedError } from "../calls/extension_requests.ts";
import type { ExtensionHandlers, ExtensionSocketLink } from "./extension_link_interface.ts";

export type { LinkSocket } from "./outbox.ts";

/**
 * A request's failure as the call error it becomes: the extension's JSON-RPC error is
 * EXTENSION_ERROR, a link that closed under it EXTENSION_DISCONNECTED; an abort's reason stays
 * what the caller gave.
 */
export function linkError(error: unknown): unknown {
  if (error instanceof RpcError) {
    return hubError("EXTENSION_ERROR", `The extension answered ${error.code}: ${error.message}`);
  }
  if (error instanceof RpcTransportError) {
    return hubError("EXTENSION_DISCONNECTED", error.message);
  }
  return error;
}

/**
 * Params in the engine's type (the schema's input). The interface (./extension_link_interface.ts)
 * keeps the parsed type its users know; a parsed value is also a valid input (the `/ws` schemas have
 * no transforms).
 */
const sent = <M extends ServerMethod>(params: ServerParams<M>) =>
  params as SentParams<typeof HUB_TO_EXTENSION_METHODS, M>;

/** One socket with its engine (which sends through the socket's outbox). */
interface Connection {
  socket: LinkSocket;
  engine: RpcEngine<typeof EXTENSION_TO_HUB_METHODS, typeof HUB_TO_EXTENSION_METHODS>;
}

/** `handlers` may be left empty and set later with `setHandlers`. */
export function createExtensionLink(
  handlers: ExtensionHandlers,
  logger: Logger,
): ExtensionSocketLink {
  let current = handlers;
  const slot = createConnectionSlot(logger);

  return {
    attach(socket) {
      const conn = openConnection(socket, () => current, logger);
      socket.onopen = () => slot.opened(conn);
      socket.onmessage = (event) => conn.engine.receive(event.data);
      socket.onclose = (event) =>
        slot.closed(conn, `connection closed${event.reason ? `: ${event.reason}` : ""}`);
      socket.onerror = () => slot.closed(conn, "connection error");
    },
    isConnected: () => slot.open() !== undefined,
    request(method, params, signal) {
      const conn = slot.open();
      if (!conn) return Promise.reject(notConnectedError());
      return conn.engine.request(method, sent(params), signal).catch((error) => {
        throw linkError(error);
      });
    },
    notify(method, params) {
      const conn = slot.active();
      return conn ? conn.engine.notify(method, sent(params)) : false;
    },
    onConnect: slot.onConnect,
    onDisconnect: slot.onDisconnect,
    disconnect: slot.disconnect,
    setHandlers(handlers) {
      current = handlers;
    },
  };
}

/** A socket with its outbox and its engine, which reads the handlers at each message. */
function openConnection(
  socket: LinkSocket,
  handlers: () => ExtensionHandlers,
  logger: Logger,
): Connection {
  const outbox = createOutbox(socket, (error) => {
    logger.warn(`Could not send to the extension: ${error.message}`);
  });
  const engine = createRpcEngine({
    incoming: EXTENSION_TO_HUB_METHODS,
    outgoing: HUB_TO_EXTENSION_METHODS,
    handlers,
    send: (text, message) => outbox.send(message, text),
    name: "hub",
    remote: "the extension",
    logger,
  });
  return { socket, engine };
}

/**
 * The one active connection: a newer one replaces it (closing it with code 4000), a closed one
 * fails its waiting requests, and the connect and disconnect listeners hear of each change.
 */
function createConnectionSlot(logger: Logger) {
  let active: Connection | undefined;
  const connectListeners: (() => void)[] = [];
  const disconnectListeners: (() => void)[] = [];

  function closed(conn: Connection, why: string) {
    conn.engine.close(new RpcTransportError(why));
    if (active !== conn) return;
    active = undefined;
    logger.info(`Extension disconnected (${why})`);
    for (const listener of disconnectListeners) listener();
  }

  function opened(conn: Connection) {
    const previous = active;
    if (previous) {
      // The old connection's calls and confirmations fail now; listeners see it go.
      closed(previous, "replaced by a newer connection");
      try {
        previous.socket.close(CLOSE_REPLACED, "replaced by a newer connection");
      } catch { /* already closing */ }
    }
    active = conn;
    logger.info("Extension connected");
    for (const listener of connectListeners) listener();
  }

  function disconnect(code: number, reason: string) {
    const conn = active;
    if (!conn) return;
    closed(conn, reason);
    try {
      conn.socket.close(code, reason);
    } catch { /* already closed */ }
  }

  return {
    opened,
    closed,
    disconnect,
    active: () => active,
    /** The active connection while its socket is open. */
    open: () =>
      active !== undefined && active.socket.readyState === WebSocket.OPEN ? active : undefined,
    onConnect: (listener: () => void) => void connectListeners.push(listener),
    onDisconnect: (listener: () => void) => void disconnectListeners.push(listener),
  };
}
