/**
 * The JSON-RPC engine both ends of `/ws` run (docs/protocol.md): the hub's link
 * (server/ws/extension_link.ts) and the extension's peer (extension/src/worker/rpc_peer.ts) each
 * create one per socket. It allocates request ids and keeps the requests waiting for an answer,
 * hands incoming requests and notifications to their handlers with params validated against the
 * method table of protocol/events.ts, answers requests (a handler's `RpcError` keeps its code and
 * data; anything else is -32603), and keeps every reply within one frame. It never touches a
 * socket: frames go out through `send`, and come in through `receive`. A bad frame gets an error
 * reply or is dropped; it never breaks the engine.
 *
 * Two ways a request fails: the other end answered with an error (an `RpcError` with its code,
 * message and data), or the link did (an `RpcTransportError`: the message could not be sent, or
 * `close` ended the wait). Callers map these to their own errors.
 */
import type { z } from "zod";
import { MAX_RESULT_BYTES } from "./call_contract.ts";
import { describeIssues } from "./param_issues.ts";
import {
  errorReply,
  parseBatchFrame,
  type ParsedFrame,
  parseFrame,
  RPC_ERRORS,
  RpcError,
  type RpcMessage,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  utf8Length,
} from "./rpc.ts";

/** One entry of a method table (HUB_TO_EXTENSION_METHODS, EXTENSION_TO_HUB_METHODS). */
export interface MethodSpec {
  type: "request" | "notification";
  params: z.ZodType;
  result?: z.ZodType;
}

export type MethodTable = Record<string, MethodSpec>;

/** The methods of a table that are requests (a reply is expected). */
export type RequestMethod<T extends MethodTable> =
  & { [M in keyof T]: T[M]["type"] extends "request" ? M : never }[keyof T]
  & string;
export type NotificationMethod<T extends MethodTable> = Exclude<keyof T & string, RequestMethod<T>>;
/** Params as a sender writes them (fields with a default may be left out). */
export type SentParams<T extends MethodTable, M extends keyof T> = z.input<T[M]["params"]>;
/** Params as a handler receives them: validated, defaults applied. */
export type ReceivedParams<T extends MethodTable, M extends keyof T> = z.output<T[M]["params"]>;
/** What runs each incoming method; a request's handler returns (or resolves to) the result. */
export type MethodHandlers<T extends MethodTable> = {
  [M in keyof T]?: (params: ReceivedParams<T, M>) => unknown;
};

/** Where the engine reports what it cannot tell the other end (the hub's logger, or console). */
export interface RpcLogger {
  debug(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A request failed on the way, not at the other end: not sent, or the link closed. */
export class RpcTransportError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RpcTransportError";
  }
}

/**
 * What a request answers instead of a result that would not fit in one frame (`bytes` long);
 * without one (or when it returns undefined) the request gets a JSON-RPC error. `params` are the
 * request's, as received.
 */
export type OversizeAnswer = (method: string, bytes: number, params: unknown) => unknown;

export interface RpcEngineOptions<In extends MethodTable, Out extends MethodTable> {
  /** The methods this end handles. */
  incoming: In;
  /** The methods this end sends (used for typing only). */
  outgoing: Out;
  /** The handlers, or a getter read at each message (so they can be set after the engine). */
  handlers: MethodHandlers<In> | (() => MethodHandlers<In>);
  /**
   * Writes one frame; `message` is what `text` serializes. Returns false (or throws) when the
   * frame could not go out.
   */
  send(text: string, message: RpcMessage): boolean | void;
  /** This end in "… is not available in this version of <name>". */
  name: string;
  /** The other end in log lines ("Dropped x from <remote>"). */
  remote: string;
  logger: RpcLogger;
  /** Accept JSON-RPC batches (one frame, several messages); otherwise a batch gets -32600. */
  batches?: boolean;
  oversize?: OversizeAnswer;
  /**
   * Replies must fit the receiver's frame limit, with room to spare. Default: the call
   * contract's MAX_RESULT_BYTES (protocol/call_contract.ts), derived from the message limit.
   */
  maxReplyBytes?: number;
}

export interface RpcEngine<In extends MethodTable, Out extends MethodTable> {
  /** Handles one frame from the other end. */
  receive(data: unknown): void;
  /**
   * Sends a request and resolves with the result. Rejects with `RpcError` when the other end
   * answers with an error, `RpcTransportError` when the link fails, or the signal's reason.
   */
  request<M extends RequestMethod<Out>>(
    method: M,
    params: SentParams<Out, M>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Sends a notification; returns whether it went out. */
  notify<M extends NotificationMethod<Out>>(method: M, params: SentParams<Out, M>): boolean;
  /** Fails every request still waiting with `error`; the engine keeps working afterwards. */
  close(error: Error): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Resolved = { handler: (params: unknown) => unknown; params: unknown } | {
  code: number;
  problem: string;
};

type AnyOptions = RpcEngineOptions<MethodTable, MethodTable>;
/** Sends a message that is no request; returns whether it went out. */
type Post = (message: RpcMessage, text?: string) => boolean;

export function createRpcEngine<In extends MethodTable, Out extends MethodTable>(
  options: RpcEngineOptions<In, Out>,
): RpcEngine<In, Out> {
  const post = createPost(options);
  const incoming = createIncoming(options, post);
  const pending = createPendingRequests(options.send);

  function handle(frame: ParsedFrame) {
    switch (frame.kind) {
      case "request":
        return void incoming.handleRequest(frame.message);
      case "notification":
        return void incoming.handleNotification(frame.message);
      case "response":
        return pending.settle(frame.message);
      case "invalid":
        if (frame.reply) post(frame.reply);
    }
  }

  return {
    receive(data) {
      if (!options.batches) return handle(parseFrame(data));
      for (const frame of parseBatchFrame(data)) handle(frame);
    },
    request: (method, params, signal) => pending.request(method, params, signal),
    notify: (method, params) => post({ jsonrpc: "2.0", method, params }),
    close: (error) => pending.close(error),
  };
}

/** Sends a message that is no request; a failure is only logged (nobody waits for it). */
function createPost({ send, logger, remote }: AnyOptions): Post {
  return (message, text = JSON.stringify(message)) => {
    try {
      return send(text, message) !== false;
    } catch (error) {
      logger.warn(`Could not send to ${remote}: ${(error as Error)?.message ?? error}`);
      return false;
    }
  };
}

/** Runs incoming requests and notifications through their handlers and answers the requests. */
function createIncoming(options: AnyOptions, post: Post) {
  const { incoming, logger, remote } = options;
  const handlersOf = typeof options.handlers === "function"
    ? options.handlers
    : () => options.handlers as MethodHandlers<MethodTable>;
  const reply = createReplies(options, post);
  const targetOf = (message: RpcRequest | RpcNotification, type: MethodSpec["type"]) =>
    resolveTarget(incoming, handlersOf, options.name, message, type);

  async function handleRequest(message: RpcRequest) {
    const target = targetOf(message, "request");
    if (!("handler" in target)) {
      return void post(errorReply(message.id, target.code, target.problem));
    }
    try {
      reply.answer(message, await target.handler(target.params));
    } catch (error) {
      reply.fail(message, error);
    }
  }

  async function handleNotification(message: RpcNotification) {
    const target = targetOf(message, "notification");
    if (!("handler" in target)) {
      // Notifications get no reply. A method this end does not know is normal between versions
      // (debug); one sent as the wrong type or with bad params means a broken sender (warn).
      const broken = target.code === RPC_ERRORS.INVALID_PARAMS ||
        Object.hasOwn(incoming, message.method) && incoming[message.method].type !== "notification";
      const log = broken ? logger.warn : logger.debug;
      return log(`Dropped ${message.method} from ${remote}: ${target.problem}`);
    }
    try {
      await target.handler(target.params);
    } catch (error) {
      logger.error(`${message.method} failed: ${(error as Error)?.stack ?? error}`);
    }
  }

  return { handleRequest, handleNotification };
}

/** The handler of a message with its validated params, or the JSON-RPC error it deserves. */
function resolveTarget(
  incoming: MethodTable,
  handlersOf: () => MethodHandlers<MethodTable>,
  name: string,
  message: RpcRequest | RpcNotification,
  type: MethodSpec["type"],
): Resolved {
  const method = message.method;
  const spec = Object.hasOwn(incoming, method) ? incoming[method] : undefined;
  if (!spec) {
    const known = Object.keys(incoming).join(", ");
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `Unknown method "${method}". Methods: ${known}.`,
    };
  }
  if (spec.type !== type) {
    const fix = spec.type === "notification" ? '; send it without an "id"' : "";
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `Unknown ${type} "${method}": ${method} is a ${spec.type}${fix}.`,
    };
  }
  const handlers = handlersOf();
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (!handler) {
    return {
      code: RPC_ERRORS.METHOD_NOT_FOUND,
      problem: `${method} is not available in this version of ${name}.`,
    };
  }
  const parsed = spec.params.safeParse(message.params ?? {});
  if (!parsed.success) {
    return {
      code: RPC_ERRORS.INVALID_PARAMS,
      problem: `Invalid params for ${method}: ${describeIssues(parsed.error)}`,
    };
  }
  return { handler, params: parsed.data };
}

/** The replies to requests: a result that fits in a frame (or the oversize answer), or an error. */
function createReplies({ oversize, maxReplyBytes: max, logger }: AnyOptions, post: Post) {
  const maxReplyBytes = max ?? MAX_RESULT_BYTES;

  function answer(message: RpcRequest, result: unknown) {
    const response: RpcResponse = { jsonrpc: "2.0", id: message.id, result: result ?? null };
    const text = JSON.stringify(response);
    // Serialized once; only a text that could be over the limit is measured in bytes.
    const bytes = text.length * 3 > maxReplyBytes ? utf8Length(text) : 0;
    if (bytes <= maxReplyBytes) return void post(response, text);
    const instead = oversize?.(message.method, bytes, message.params);
    if (instead !== undefined) return void post({ ...response, result: instead });
    const why = `The answer to ${message.method} is ${bytes} bytes; the limit is ${maxReplyBytes}.`;
    post(errorReply(message.id, RPC_ERRORS.INTERNAL_ERROR, why));
  }

  /** A handler's `RpcError` keeps its code and data; anything else is -32603 (and logged). */
  function fail(message: RpcRequest, error: unknown) {
    const known = error instanceof RpcError;
    const e = error as Error;
    if (!known) logger.error(`${message.method} failed: ${e?.stack ?? e}`);
    post({
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: known ? error.code : RPC_ERRORS.INTERNAL_ERROR,
        message: e?.message ?? String(e),
        ...(known && error.data !== undefined ? { data: error.data } : {}),
      },
    });
  }

  return { answer, fail };
}

/** The requests this end sent and still waits for: ids, answers, aborts and `close`. */
function createPendingRequests(send: AnyOptions["send"]) {
  const pending = new Map<number, Pending>();
  let nextId = 1;

  function request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = nextId++;
    const message: RpcRequest = { jsonrpc: "2.0", id, method, params };
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(error); // the caller's params, not the link, are at fault
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        pending.delete(id);
        reject(signal!.reason);
      };
      const done = () => signal?.removeEventListener("abort", onAbort);
      pending.set(id, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      const failure = sendRequest(send, text, message);
      if (failure && pending.delete(id)) (done(), reject(failure));
    });
  }

  /** Settles the request a response answers; one that is not waiting is ignored. */
  function settle(message: RpcResponse) {
    const waiting = typeof message.id === "number" ? pending.get(message.id) : undefined;
    if (!waiting) return; // not ours, answered already, aborted, or closed
    pending.delete(message.id as number);
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      waiting.reject(new RpcError(code, String(text), data));
    } else waiting.resolve(message.result);
  }

  function close(error: Error) {
    const waiting = [...pending.values()];
    pending.clear();
    for (const p of waiting) p.reject(error);
  }

  return { request, settle, close };
}

/** Writes a request's frame; returns why it could not go out, or undefined when it did. */
function sendRequest(
  send: AnyOptions["send"],
  text: string,
  message: RpcRequest,
): RpcTransportError | undefined {
  try {
    if (send(text, message) !== false) return undefined;
    return new RpcTransportError(`The link closed before ${message.method} could be sent.`);
  } catch (error) {
    return new RpcTransportError((error as Error)?.message ?? String(error), { cause: error });
  }
}
