/**
 * The extension's end of the JSON-RPC link: requests from the hub go to handlers with params
 * validated against protocol/events.ts; requests to the hub wait for their response; a bad frame
 * gets an error reply (or is dropped) and never breaks the link.
 */
import {
  type ExtensionNotificationMethod,
  type ExtensionParams,
  type ExtensionRequestMethod,
  SERVER_METHODS,
  type ServerMethod,
  type ServerParams,
} from "../../../protocol/events.ts";
import {
  errorReply,
  MAX_FRAME_BYTES,
  parseBatchFrame,
  RPC_ERRORS,
  RpcError,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  utf8Length,
} from "../../../protocol/rpc.ts";
import { resolveMethod } from "../../../protocol/methods.ts";

export type ServerHandlers = {
  [M in ServerMethod]?: (params: ServerParams<M>) => unknown;
};

type RequestMethod = ExtensionRequestMethod;
type NotificationMethod = ExtensionNotificationMethod;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface RpcPeer {
  receive(data: unknown): void;
  request<M extends RequestMethod>(method: M, params: ExtensionParams<M>): Promise<unknown>;
  notify<M extends NotificationMethod>(method: M, params: ExtensionParams<M>): void;
  /** Fails every request still waiting (the socket closed). */
  close(why: string): void;
}

/**
 * What a request answers instead of a result that would not fit in one frame to the hub
 * (`bytes` long); without one (or when it returns undefined) the request gets a JSON-RPC error.
 */
export type OversizeAnswer = (method: string, bytes: number) => unknown;

/** Replies must fit the hub's frame limit, with room to spare. */
export const MAX_REPLY_BYTES = MAX_FRAME_BYTES - 64 * 1024;

export function createRpcPeer(
  send: (text: string) => void,
  handlers: ServerHandlers,
  oversize?: OversizeAnswer,
): RpcPeer {
  const pending = new Map<number, Pending>();
  let nextId = 1;

  function reply(message: RpcResponse) {
    try {
      send(JSON.stringify(message));
    } catch (error) {
      console.warn("hub: could not send a reply", error);
    }
  }

  const methodHandlers = handlers as Record<string, ((params: never) => unknown) | undefined>;
  const resolve = (message: RpcRequest | RpcNotification, type: "request" | "notification") =>
    resolveMethod(SERVER_METHODS, methodHandlers, message, type, "the hub extension");

  async function handleRequest(message: RpcRequest) {
    const target = resolve(message, "request");
    if (!("run" in target)) return reply(errorReply(message.id, target.code, target.problem));
    try {
      const result = await target.run();
      const text = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: result ?? null });
      // Serialized once; only a long text is measured in bytes.
      const bytes = text.length * 3 > MAX_REPLY_BYTES ? utf8Length(text) : 0;
      if (bytes <= MAX_REPLY_BYTES) return send(text);
      const answer = oversize?.(message.method, bytes);
      if (answer !== undefined) return reply({ jsonrpc: "2.0", id: message.id, result: answer });
      const why =
        `The answer to ${message.method} is ${bytes} bytes; the limit is ${MAX_REPLY_BYTES}.`;
      reply(errorReply(message.id, RPC_ERRORS.INTERNAL_ERROR, why));
    } catch (error) {
      const code = error instanceof RpcError ? error.code : RPC_ERRORS.INTERNAL_ERROR;
      reply(errorReply(message.id, code, (error as Error)?.message ?? String(error)));
    }
  }

  async function handleNotification(message: RpcNotification) {
    const target = resolve(message, "notification");
    if (!("run" in target)) return console.warn(`hub: ${target.problem}`);
    try {
      await target.run();
    } catch (error) {
      console.warn(`hub: handling ${message.method} failed`, error);
    }
  }

  function handleResponse(message: RpcResponse) {
    const waiting = typeof message.id === "number" ? pending.get(message.id) : undefined;
    if (!waiting) return;
    pending.delete(message.id as number);
    if ("error" in message) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  }

  return {
    receive(data) {
      for (const frame of parseBatchFrame(data)) {
        if (frame.kind === "request") void handleRequest(frame.message);
        else if (frame.kind === "notification") void handleNotification(frame.message);
        else if (frame.kind === "response") handleResponse(frame.message);
        else if (frame.reply) reply(frame.reply);
      }
    },
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        try {
          send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
        } catch (error) {
          pending.delete(id);
          reject(error as Error);
        }
      });
    },
    notify(method, params) {
      send(JSON.stringify({ jsonrpc: "2.0", method, params }));
    },
    close(why) {
      for (const waiting of pending.values()) waiting.reject(new Error(why));
      pending.clear();
    },
  };
}
