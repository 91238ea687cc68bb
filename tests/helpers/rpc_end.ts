/**
 * One end of `/ws` as a bare JSON-RPC engine (protocol/rpc_engine.ts) for unit tests: its `send`
 * records every frame (and can be made to fail), its logger records every line, and `next()`
 * waits for the next frame it sent.
 */
import { EXTENSION_TO_HUB_METHODS, HUB_TO_EXTENSION_METHODS } from "../../protocol/events.ts";
import type { RpcMessage } from "../../protocol/rpc.ts";
import {
  createRpcEngine,
  type MethodHandlers,
  type MethodTable,
  type RpcEngine,
  type RpcEngineOptions,
} from "../../protocol/rpc_engine.ts";

export interface LogLine {
  level: "debug" | "warn" | "error";
  message: string;
}

/** Options a test may set; the rest are the fixture's. */
export type EndOptions = Partial<
  Pick<
    RpcEngineOptions<MethodTable, MethodTable>,
    "name" | "remote" | "batches" | "oversize" | "maxReplyBytes"
  >
>;

export interface End<In extends MethodTable, Out extends MethodTable> {
  engine: RpcEngine<In, Out>;
  /** Every frame sent, parsed. */
  frames: Record<string, unknown>[];
  /** The message objects `send` was given with each frame (they must match the text). */
  messages: RpcMessage[];
  logs: LogLine[];
  /** The next frame sent (in order; waits for it). */
  next(): Promise<Record<string, unknown>>;
  /** From now on `send` throws ("throw"), returns false ("refuse"), or works (undefined). */
  failSends(how: "throw" | "refuse" | undefined): void;
  /** Lets queued handler work run, so "nothing was sent" is a real observation. */
  settle(): Promise<void>;
}

function end<In extends MethodTable, Out extends MethodTable>(
  incoming: In,
  outgoing: Out,
  handlers: MethodHandlers<In> | (() => MethodHandlers<In>),
  options: EndOptions,
): End<In, Out> {
  const frames: Record<string, unknown>[] = [];
  const messages: RpcMessage[] = [];
  const logs: LogLine[] = [];
  const waiters: (() => void)[] = [];
  let failure: "throw" | "refuse" | undefined;
  const log = (level: LogLine["level"]) => (message: string) => void logs.push({ level, message });
  const engine = createRpcEngine({
    incoming,
    outgoing,
    handlers,
    name: "the receiver",
    remote: "the other end",
    ...options,
    logger: { debug: log("debug"), warn: log("warn"), error: log("error") },
    send(text, message) {
      if (failure === "throw") throw new Error("socket is closed");
      if (failure === "refuse") return false;
      frames.push(JSON.parse(text));
      messages.push(message);
      waiters.shift()?.();
      return true;
    },
  });
  let read = 0;
  return {
    engine,
    frames,
    messages,
    logs,
    async next() {
      while (frames.length <= read) await new Promise<void>((resolve) => waiters.push(resolve));
      return frames[read++];
    },
    failSends: (how) => void (failure = how),
    settle: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}

/** The extension's end: handles HUB_TO_EXTENSION_METHODS, sends EXTENSION_TO_HUB_METHODS, accepts batches. */
export function extensionEnd(
  handlers:
    | MethodHandlers<typeof HUB_TO_EXTENSION_METHODS>
    | (() => MethodHandlers<typeof HUB_TO_EXTENSION_METHODS>),
  options: EndOptions = {},
) {
  return end(HUB_TO_EXTENSION_METHODS, EXTENSION_TO_HUB_METHODS, handlers, {
    name: "the hub extension",
    batches: true,
    ...options,
  });
}

/** The hub's end: handles EXTENSION_TO_HUB_METHODS, sends HUB_TO_EXTENSION_METHODS, refuses batches. */
export function hubEnd(
  handlers:
    | MethodHandlers<typeof EXTENSION_TO_HUB_METHODS>
    | (() => MethodHandlers<typeof EXTENSION_TO_HUB_METHODS>),
  options: EndOptions = {},
) {
  return end(EXTENSION_TO_HUB_METHODS, HUB_TO_EXTENSION_METHODS, handlers, {
    name: "hub",
    ...options,
  });
}

/** A JSON-RPC 2.0 frame with these members. */
export const frame = (message: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", ...message });
