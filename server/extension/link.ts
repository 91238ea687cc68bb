/**
 * The hub's end of the `/ws` link to the extension: one active connection (a new one replaces the
 * old), JSON-RPC requests in both directions, notifications, and method handlers with validated
 * params. A bad frame gets an error reply or is dropped; it never closes the link or the server.
 */
import {
  EXTENSION_METHODS,
  type ExtensionMethod,
  type ExtensionParams,
  type ServerNotificationMethod,
  type ServerParams,
  type ServerRequestMethod,
} from "../../protocol/events.ts";
import {
  CLOSE_REPLACED,
  errorReply,
  parseFrame,
  RPC_ERRORS,
  RpcError,
  type RpcId,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
} from "../../protocol/rpc.ts";
import type { Logger } from "../log/logger.ts";
import { callError } from "../calls/call_error.ts";
import { resolveMethod } from "../../protocol/methods.ts";
import { createOutbox, type Outbox } from "./outbox.ts";

export type ExtensionHandlers = {
  [M in ExtensionMethod]?: (params: ExtensionParams<M>) => unknown;
};

type RequestMethod = ServerRequestMethod;
type NotificationMethod = ServerNotificationMethod;

interface Pending {
  socket: WebSocket;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function notConnectedError() {
  return callError(
    "EXTENSION_NOT_CONNECTED",
    "The hub browser extension is not connected. Open Chromium with the hub extension loaded " +
      '(see "hub status"), then try again.',
  );
}

export interface ExtensionLink {
  /** Takes over a freshly upgraded socket; an older connection is closed. */
  attach(socket: WebSocket): void;
  isConnected(): boolean;
  /** Sends a request; rejects with EXTENSION_NOT_CONNECTED / EXTENSION_DISCONNECTED. */
  request<M extends RequestMethod>(
    method: M,
    params: ServerParams<M>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Sends a notification if connected; returns whether it was sent. */
  notify<M extends NotificationMethod>(method: M, params: ServerParams<M>): boolean;
  onConnect(listener: () => void): void;
  onDisconnect(listener: () => void): void;
  /** Closes the active connection (shutdown, secret rotation). */
  disconnect(code: number, reason: string): void;
}

export function createExtensionLink(handlers: ExtensionHandlers, logger: Logger): ExtensionLink {
  const methodHandlers = handlers as Record<string, ((params: never) => unknown) | undefined>;
  let active: WebSocket | undefined;
  let nextId = 1;
  const pending = new Map<RpcId, Pending>();
  const connectListeners: (() => void)[] = [];
  const disconnectListeners: (() => void)[] = [];

  const outboxes = new WeakMap<WebSocket, Outbox>();
  const outbox = (socket: WebSocket) => {
    let box = outboxes.get(socket);
    if (!box) {
      box = createOutbox(socket, (error) => {
        logger.warn(`Could not send to the extension: ${error.message}`);
      });
      outboxes.set(socket, box);
    }
    return box;
  };
  const send = (socket: WebSocket, message: RpcRequest | RpcNotification | RpcResponse) =>
    outbox(socket).send(message);

  function failPending(socket: WebSocket, why: string) {
    for (const [id, p] of pending) {
      if (p.socket !== socket) continue;
      pending.delete(id);
      p.reject(callError("EXTENSION_DISCONNECTED", why));
    }
  }

  function closed(socket: WebSocket, why: string) {
    outboxes.get(socket)?.flush(); // nothing is written to a closed socket; this ends the timer
    failPending(socket, why);
    if (active !== socket) return;
    active = undefined;
    logger.info(`Extension disconnected (${why})`);
    for (const listener of disconnectListeners) listener();
  }

  /** The handler of a message with its validated params, or the JSON-RPC error it deserves. */
  const resolve = (message: RpcRequest | RpcNotification, type: "request" | "notification") =>
    resolveMethod(EXTENSION_METHODS, methodHandlers, message, type, "hub");

  async function handleRequest(socket: WebSocket, message: RpcRequest) {
    const resolved = resolve(message, "request");
    if (!("run" in resolved)) {
      send(socket, errorReply(message.id, resolved.code, resolved.problem));
      return;
    }
    try {
      const result = await resolved.run();
      send(socket, { jsonrpc: "2.0", id: message.id, result: result ?? null });
    } catch (error) {
      const known = error instanceof RpcError;
      const e = error as Error;
      if (!known) logger.error(`${message.method} failed: ${e?.stack ?? e}`);
      send(socket, {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: known ? error.code : RPC_ERRORS.INTERNAL_ERROR,
          message: e?.message ?? String(e),
          ...(known && error.data !== undefined ? { data: error.data } : {}),
        },
      });
    }
  }

  async function handleNotification(message: RpcNotification) {
    const resolved = resolve(message, "notification");
    if (!("run" in resolved)) {
      // Notifications get no reply (JSON-RPC); an unknown one is only worth a debug line.
      const log = resolved.code === RPC_ERRORS.INVALID_PARAMS ? logger.warn : logger.debug;
      log(`Dropped ${message.method} from the extension: ${resolved.problem}`);
      return;
    }
    try {
      await resolved.run();
    } catch (error) {
      logger.error(`${message.method} failed: ${(error as Error)?.stack ?? error}`);
    }
  }

  function receive(socket: WebSocket, data: unknown) {
    const frame = parseFrame(data);
    switch (frame.kind) {
      case "invalid":
        if (frame.reply) send(socket, frame.reply);
        return;
      case "response": {
        const p = pending.get(frame.message.id as RpcId);
        if (!p || p.socket !== socket) return;
        pending.delete(frame.message.id as RpcId);
        if ("error" in frame.message) {
          const { code, message } = frame.message.error;
          p.reject(callError("EXTENSION_ERROR", `The extension answered ${code}: ${message}`));
        } else p.resolve(frame.message.result);
        return;
      }
      case "request":
        void handleRequest(socket, frame.message);
        return;
      case "notification":
        void handleNotification(frame.message);
    }
  }

  return {
    attach(socket) {
      socket.onopen = () => {
        const previous = active;
        if (previous) {
          // The old connection's calls and confirmations fail now; listeners see it go.
          closed(previous, "replaced by a newer connection");
          try {
            previous.close(CLOSE_REPLACED, "replaced by a newer connection");
          } catch { /* already closing */ }
        }
        active = socket;
        logger.info("Extension connected");
        for (const listener of connectListeners) listener();
      };
      socket.onmessage = (event) => receive(socket, event.data);
      socket.onclose = (event) =>
        closed(socket, `connection closed${event.reason ? `: ${event.reason}` : ""}`);
      socket.onerror = () => closed(socket, "connection error");
    },
    isConnected: () => active !== undefined && active.readyState === WebSocket.OPEN,
    request(method, params, signal) {
      const socket = active;
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        return Promise.reject(notConnectedError());
      }
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          pending.delete(id);
          reject(signal!.reason);
        };
        pending.set(id, {
          socket,
          resolve: (v) => (signal?.removeEventListener("abort", onAbort), resolve(v)),
          reject: (e) => (signal?.removeEventListener("abort", onAbort), reject(e)),
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        send(socket, { jsonrpc: "2.0", id, method, params });
      });
    },
    notify(method, params) {
      return active ? send(active, { jsonrpc: "2.0", method, params }) : false;
    },
    onConnect: (listener) => connectListeners.push(listener),
    onDisconnect: (listener) => disconnectListeners.push(listener),
    disconnect(code, reason) {
      const socket = active;
      if (!socket) return;
      closed(socket, reason);
      try {
        socket.close(code, reason);
      } catch { /* already closed */ }
    },
  };
}
