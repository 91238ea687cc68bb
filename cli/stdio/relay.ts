/**
 * The client side of the stdio bridge: what to do with each line the MCP client writes, and with
 * each message the hub sends back. Requests go to the hub through a bounded flow (see
 * flow.ts) and hold their place until their answer is written to stdout; when the flow is
 * full, or a line is too long or not JSON-RPC, the client gets a JSON-RPC error that says why at
 * once, and the bridge goes on with the next line.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../protocol/clip.ts";
import { createFlow, type FlowLimits } from "./flow.ts";
import { type JsonRpcId, type LineEvent, MAX_LINE_BYTES } from "./lines.ts";

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
type Reply = (id: JsonRpcId | null, code: number, message: string) => Promise<void>;

/** Requests sent and not answered yet, by id: how to free their place (a repeated id queues). */
function pendingRequests() {
  const pending = new Map<string, (() => void)[]>();
  const key = (id: JsonRpcId) => `${typeof id}:${id}`;
  return {
    add(id: JsonRpcId, release: () => void) {
      const list = pending.get(key(id)) ?? [];
      list.push(release);
      pending.set(key(id), list);
    },
    /** Forgets the oldest request under `id`; how to free its place (undefined: none pending). */
    settle(id: JsonRpcId): (() => void) | undefined {
      const waiting = pending.get(key(id));
      const release = waiting?.shift();
      if (waiting?.length === 0) pending.delete(key(id));
      return release;
    },
  };
}
type Pending = ReturnType<typeof pendingRequests>;

/** Writes the bridge's own JSON-RPC error answer to the client (a failed write is ignored). */
function replier(deps: RelayDeps): Reply {
  return (id, code, message) =>
    deps.write({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage)
      .catch(() => {});
}

/** Counts notifications and responses dropped at a full flow; says so at most once a second. */
function dropLogger(deps: RelayDeps): () => void {
  const drops = { count: 0, lastLog: -Infinity };
  return () => {
    drops.count++;
    const now = Date.now();
    if (now - drops.lastLog < DROP_LOG_INTERVAL_MS) return;
    drops.lastLog = now;
    deps.log(
      `dropped ${drops.count} notification(s) or response(s): too many messages in flight ` +
        `(limit ${deps.limits.maxInFlight}, and ${deps.limits.maxQueued} waiting).`,
    );
    drops.count = 0;
  };
}

/**
 * The message on one line and the line's size; undefined for a blank line, or one that is too long or not JSON-RPC
 * (the client has been answered with an error that says why, written before this resolves).
 */
async function readMessage(
  event: LineEvent,
  deps: RelayDeps,
  reply: Reply,
): Promise<{ message: JSONRPCMessage; bytes: number } | undefined> {
  if ("tooLong" in event) {
    const max = deps.maxLineBytes ?? MAX_LINE_BYTES;
    const text = `hub stdio bridge: dropped a message of ${event.tooLong} bytes: one line (one ` +
      `message) may hold ${max} bytes at most. Send smaller messages.`;
    deps.log(text);
    await reply(event.id ?? null, INVALID_REQUEST, text);
    return undefined;
  }
  if (event.line.trim() === "") return undefined;
  try {
    return { message: JSONRPCMessageSchema.parse(JSON.parse(event.line)), bytes: event.bytes };
  } catch (error) {
    const text = `hub stdio bridge: a line is not a JSON-RPC message: ${errorText(error)}`;
    deps.log(text);
    await reply(null, PARSE_ERROR, text);
    return undefined;
  }
}

/**
 * Sends a message that got its place in the flow. A request keeps the place until its answer is
 * written; anything else frees it once sent. When the hub does not take it, a request is answered
 * with an error that says so.
 */
function sendToHub(
  deps: RelayDeps,
  pending: Pending,
  reply: Reply,
  sent: { message: JSONRPCMessage; request: JsonRpcId | undefined; release: () => void },
) {
  const { message, request, release } = sent;
  if (request !== undefined) pending.add(request, release);
  deps.send(message).then(
    () => request === undefined && release(),
    (error: Error) => {
      deps.log(`could not reach the hub on port ${deps.port}: ${errorText(error)}`);
      if (request === undefined) return release();
      pending.settle(request);
      void reply(
        request,
        BUSY_CODE,
        `hub on port ${deps.port} did not take the request: ${errorText(error)}`,
      ).finally(release);
    },
  );
}

export function createRelay(deps: RelayDeps): Relay {
  const flow = createFlow(deps.limits);
  const pending = pendingRequests();
  const reply = replier(deps);
  const dropped = dropLogger(deps);

  async function line(event: LineEvent): Promise<void> {
    const read = await readMessage(event, deps, reply);
    if (read === undefined) return;
    const { message, bytes } = read;
    const m = message as Message;
    const request = m.method !== undefined && m.id != null ? m.id : undefined;
    const cancelled = m.method === "notifications/cancelled" ? m.params?.requestId : undefined;
    if (cancelled !== undefined) pending.settle(cancelled)?.(); // the hub will not answer it
    const admitted = flow.offer(
      bytes,
      (release) => sendToHub(deps, pending, reply, { message, request, release }),
    );
    if (admitted) return;
    if (request === undefined) return dropped();
    await reply(
      request,
      BUSY_CODE,
      `hub stdio bridge: too many requests in flight (limit ${deps.limits.maxInFlight}, and ` +
        `${deps.limits.maxQueued} waiting); wait for answers before sending more.`,
    );
  }

  return {
    line,
    fromHub(message) {
      const m = message as Message;
      const written = deps.write(message).catch(() => {});
      const release = m.method === undefined && m.id != null ? pending.settle(m.id) : undefined;
      if (release) void written.finally(release);
    },
    get inFlight() {
      return flow.inFlight;
    },
  };
}
