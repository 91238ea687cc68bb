/**
 * The client side of the stdio bridge: what to do with each line the MCP client writes, and with
 * each message the hub sends back. Requests go to the hub through a bounded flow (see
 * stdio_flow.ts) and hold their place until their answer is written to stdout; when the flow is
 * full, or a line is too long or not JSON-RPC, the client gets a JSON-RPC error that says why at
 * once, and the bridge goes on with the next line.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../protocol/clip.ts";
import { createFlow, type FlowLimits } from "./stdio_flow.ts";
import { type JsonRpcId, type LineEvent, MAX_LINE_BYTES } from "./stdio_lines.ts";

/** JSON-RPC "server error": the bridge cannot take the request now. */
export const BUSY_CODE = -32000;
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
/** At most one stderr line a second about dropped notifications. */
const DROP_LOG_INTERVAL_MS = 1_000;

export interface RelayDeps {
  /** Sends one message to the hub; rejects when the hub did not take it. */
  send(message: JSONRPCMessage): Promise<void>;
  /** Writes one message to stdout; resolves once it is handed to the system. */
  write(message: JSONRPCMessage): Promise<void>;
  log(message: string): void;
  /** The hub's port, for error messages. */
  port: number;
  limits: FlowLimits;
  maxLineBytes?: number;
}

export interface Relay {
  /** Handles one line from stdin; resolves once any answer of the bridge's own is written. */
  line(event: LineEvent): Promise<void>;
  /** Passes one message from the hub to the client, freeing its request's place once written. */
  fromHub(message: JSONRPCMessage): void;
  readonly inFlight: number;
}

type Message = { id?: JsonRpcId | null; method?: string; params?: { requestId?: JsonRpcId } };

export function createRelay(deps: RelayDeps): Relay {
  const flow = createFlow(deps.limits);
  /** Requests sent and not answered yet, by id: how to free their place. */
  const pending = new Map<string, (() => void)[]>();
  const drops = { count: 0, lastLog: -Infinity };
  const key = (id: JsonRpcId) => `${typeof id}:${id}`;
  const settle = (id: JsonRpcId) => {
    const waiting = pending.get(key(id));
    const release = waiting?.shift();
    if (waiting?.length === 0) pending.delete(key(id));
    return release;
  };
  const reply = (id: JsonRpcId | null, code: number, message: string) =>
    deps.write({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage)
      .catch(() => {});

  function start(message: JSONRPCMessage, request: JsonRpcId | undefined, release: () => void) {
    if (request !== undefined) {
      const list = pending.get(key(request)) ?? [];
      list.push(release);
      pending.set(key(request), list);
    }
    deps.send(message).then(
      () => request === undefined && release(),
      (error: Error) => {
        deps.log(`could not reach the hub on port ${deps.port}: ${errorText(error)}`);
        if (request === undefined) return release();
        settle(request);
        void reply(
          request,
          BUSY_CODE,
          `hub on port ${deps.port} did not take the request: ${errorText(error)}`,
        ).finally(release);
      },
    );
  }

  async function line(event: LineEvent): Promise<void> {
    if ("tooLong" in event) {
      const max = deps.maxLineBytes ?? MAX_LINE_BYTES;
      const text = `hub stdio bridge: dropped a message of ${event.tooLong} bytes: one line (one ` +
        `message) may hold ${max} bytes at most. Send smaller messages.`;
      deps.log(text);
      return await reply(event.id ?? null, INVALID_REQUEST, text);
    }
    if (event.line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(event.line));
    } catch (error) {
      const text = `hub stdio bridge: a line is not a JSON-RPC message: ${errorText(error)}`;
      deps.log(text);
      return await reply(null, PARSE_ERROR, text);
    }
    const m = message as Message;
    const request = m.method !== undefined && m.id != null ? m.id : undefined;
    const cancelled = m.method === "notifications/cancelled" ? m.params?.requestId : undefined;
    if (cancelled !== undefined) settle(cancelled)?.(); // the hub will not answer it
    if (flow.offer(event.bytes, (release) => start(message, request, release))) return;
    if (request !== undefined) {
      return await reply(
        request,
        BUSY_CODE,
        `hub stdio bridge: too many requests in flight (limit ${deps.limits.maxInFlight}, and ` +
          `${deps.limits.maxQueued} waiting); wait for answers before sending more.`,
      );
    }
    dropped();
  }

  function dropped(): void {
    drops.count++;
    const now = Date.now();
    if (now - drops.lastLog < DROP_LOG_INTERVAL_MS) return;
    drops.lastLog = now;
    deps.log(
      `dropped ${drops.count} notification(s) or response(s): too many messages in flight ` +
        `(limit ${deps.limits.maxInFlight}, and ${deps.limits.maxQueued} waiting).`,
    );
    drops.count = 0;
  }

  return {
    line,
    fromHub(message) {
      const m = message as Message;
      const written = deps.write(message).catch(() => {});
      const release = m.method === undefined && m.id != null ? settle(m.id) : undefined;
      if (release) void written.finally(release);
    },
    get inFlight() {
      return flow.inFlight;
    },
  };
}
