/**
 * The front of one MCP session: it answers the requests that make up nearly all traffic
 * (`tools/call`, `tools/list`, `ping`) itself, and leaves everything else to the SDK's transport and
 * server object (`fast_request.ts` says which). Same wire protocol, less work per request: no
 * schema parsing of a message that was already checked, no stream machinery for an answer that is
 * ready at once, and `tools/list` served from bytes serialized once per catalog state.
 *
 * How each is answered (Streamable HTTP lets a server answer a POST with JSON or with SSE):
 * - `ping`, `tools/list`, and a `tools/call` whose result is ready within STREAM_AFTER_MS and that
 *   sent no progress: one JSON body. Nothing is left to resume: the answer is complete.
 * - a slower call, or one that reports progress: an SSE stream (`call_stream.ts`) that starts with
 *   the priming event (clients of protocol 2025-11-25 or later), carries the progress and ends with
 *   the result; every event is stored, so a dropped client resumes with `GET` + `Last-Event-ID`.
 */
import type { JSONRPCMessage } from "./sdk.ts";
import type { ResumePoint, SessionEventStore } from "./event_store.ts";
import { CallStream, primingEvent, SSE_HEADERS, sseEvent, sseEvents } from "./call_stream.ts";
import { acceptsEventStream, type FastRequest, fastRequest } from "./fast_request.ts";
import { invalidRequest, rpcErrorOf } from "./protocol_errors.ts";
import type { RpcErrorObject, RpcId } from "../../protocol/rpc.ts";
import {
  type CallParams,
  callParams,
  type McpMode,
  type McpServerDeps,
  type Progress,
  runToolCall,
} from "./mcp_server.ts";
import type { ToolListCache } from "./tool_list_cache.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./protocol_versions.ts";

/**
 * A call not finished after this long is answered as an SSE stream (its priming event first). One
 * sweep per session every STREAM_AFTER_MS / 2 finds them (not a timer per call), so a slow call
 * starts streaming between 50 and 75 ms.
 */
export const STREAM_AFTER_MS = 50;

interface Waiting {
  since: number;
  toStream(): void;
}

export interface FrontOptions extends McpServerDeps {
  mode: McpMode;
  sessionId: string;
  events: SessionEventStore;
  lists: ToolListCache;
  /** The SSE `retry` field of priming events. */
  retryMs: number;
}

const CLOSE_BRACE = new TextEncoder().encode("}");
type Outcome = { result: unknown } | { error: RpcErrorObject };
const DUPLICATE_ID: RpcErrorObject = rpcErrorOf(
  invalidRequest("a call with this id is still running in this session; use a new id."),
);

export class McpFront {
  readonly #calls = new Map<RpcId, AbortController>();
  readonly #streams = new Map<string, CallStream>();
  readonly #sse: Record<string, string>;
  readonly #json: Record<string, string>;
  /** Calls that have not answered yet and do not stream yet. */
  readonly #waiting = new Set<Waiting>();
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #nextStream = 0;
  #closed = false;

  constructor(private readonly options: FrontOptions) {
    const session = { "mcp-session-id": options.sessionId };
    this.#sse = { ...SSE_HEADERS, ...session };
    this.#json = { "content-type": "application/json", ...session };
  }

  /** The answer to a POST, or undefined when the SDK must answer it. */
  answer(req: Request, body: unknown): Promise<Response> | undefined {
    if (this.#closed) return undefined;
    const request = fastRequest(req, body);
    if (!request) return undefined;
    if (request.method === "ping") return Promise.resolve(this.#jsonAnswer(request.id, "{}"));
    if (request.method === "tools/list") return Promise.resolve(this.#toolsList(request.id));
    return this.#toolsCall(request);
  }

  /** Aborts the front's calls that `notifications/cancelled` messages in a POST body name. */
  noteCancels(body: unknown): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (!isPlainObject(message) || message.method !== "notifications/cancelled") continue;
      if (!isPlainObject(message.params)) continue;
      const { requestId, reason } = message.params;
      const call = this.#calls.get(requestId as RpcId);
      if (!call) continue;
      this.#calls.delete(requestId as RpcId);
      call.abort(reason);
    }
  }

  /** A resume (GET + Last-Event-ID) of a stream of the front that is still running. */
  resume(point: ResumePoint, req: Request): Response | undefined {
    const stream = this.#streams.get(point.streamId);
    if (!stream || !acceptsEventStream(req.headers)) return undefined;
    const version = req.headers.get("mcp-protocol-version");
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
    const replay = sseEvents(this.options.events.eventsAfter(point));
    return new Response(stream.takeOver(replay), { headers: this.#sse });
  }

  /** The session ended: running calls are aborted and their streams end. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    this.#waiting.clear();
    for (const call of this.#calls.values()) call.abort();
    this.#calls.clear();
    for (const stream of this.#streams.values()) stream.end();
    this.#streams.clear();
  }

  #jsonAnswer(id: RpcId, result: string): Response {
    return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, {
      headers: this.#json,
    });
  }

  /**
   * The cached list behind this request's id, sent as three chunks: a `Uint8Array` body would be
   * copied (once to join the parts, once more by `Response`); chunks are written as they are.
   */
  #toolsList(id: RpcId): Response {
    const list = this.options.lists.bytes(this.options.mode, this.options.catalog);
    const head = new TextEncoder().encode(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`);
    const parts = [head, list, CLOSE_BRACE];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const length = String(head.length + list.length + CLOSE_BRACE.length);
    return new Response(body, { headers: { ...this.#json, "content-length": length } });
  }

  #store(streamId: string, message: JSONRPCMessage, json?: string): string {
    return this.options.events.store(streamId, message, json);
  }

  /** The priming event of a stream (stored empty, as the SDK stores it). */
  #priming(streamId: string): string {
    const id = this.#store(streamId, {} as JSONRPCMessage, "{}");
    return primingEvent(id, this.options.retryMs);
  }

  #toolsCall({ id, params, resumable }: FastRequest): Promise<Response> {
    // Ids are unique per session while in flight (JSON-RPC): a cancel must name exactly one call.
    if (this.#calls.has(id)) {
      return Promise.resolve(this.#settled(id, { error: DUPLICATE_ID }));
    }
    let checked: CallParams;
    try {
      checked = callParams(params);
    } catch (error) {
      return Promise.resolve(this.#settled(id, { error: rpcErrorOf(error) }));
    }
    const abort = new AbortController();
    this.#calls.set(id, abort);
    const streamId = `f${++this.#nextStream}`;
    return new Promise<Response>((respond) => {
      let stream: CallStream | undefined;
      const toStream = (): CallStream => {
        if (stream) return stream;
        this.#unwait(waiting);
        stream = new CallStream();
        this.#streams.set(streamId, stream);
        const first = resumable ? this.#priming(streamId) : "";
        respond(new Response(stream.open(first), { headers: this.#sse }));
        return stream;
      };
      const waiting = { since: Date.now(), toStream };
      this.#wait(waiting);
      const token = checked.progressToken;
      const onProgress = token === undefined ? undefined : (p: Progress) => {
        if (abort.signal.aborted) return;
        const message = {
          jsonrpc: "2.0" as const,
          method: "notifications/progress",
          params: { progressToken: token, ...p },
        };
        const json = JSON.stringify(message);
        toStream().send(sseEvent(this.#store(streamId, message, json), json));
      };
      const finish = (outcome: Outcome) => {
        if (this.#calls.get(id) === abort) this.#calls.delete(id);
        if (abort.signal.aborted) return this.#abandon(streamId, toStream());
        if (!stream) {
          this.#unwait(waiting);
          return respond(this.#settled(id, outcome));
        }
        const message = { jsonrpc: "2.0" as const, id, ...outcome } as JSONRPCMessage;
        const json = JSON.stringify(message);
        stream.end(sseEvent(this.#store(streamId, message, json), json));
        this.#streams.delete(streamId);
      };
      runToolCall(this.options.mode, this.options, checked, onProgress, abort.signal).then(
        (result) => finish({ result }),
        (error) => finish({ error: rpcErrorOf(error) }),
      );
    });
  }

  #wait(waiting: Waiting): void {
    this.#waiting.add(waiting);
    this.#sweeper ??= setInterval(() => this.#sweep(), STREAM_AFTER_MS / 2);
  }

  /** A call answered or streaming; the sweep stops when no call waits. */
  #unwait(waiting: Waiting): void {
    this.#waiting.delete(waiting);
    if (this.#waiting.size > 0) return;
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Streams the calls that have waited STREAM_AFTER_MS. */
  #sweep(): void {
    const due = Date.now() - STREAM_AFTER_MS;
    for (const waiting of this.#waiting) if (waiting.since <= due) waiting.toStream();
  }

  /** The answer to a call that settled before it had to stream: one JSON body. */
  #settled(id: RpcId, outcome: Outcome): Response {
    return new Response(JSON.stringify({ jsonrpc: "2.0", id, ...outcome }), {
      headers: this.#json,
    });
  }

  /**
   * A cancelled call gets no response (as with the SDK): its stream stays open without one until
   * the client goes away or the session ends.
   */
  #abandon(streamId: string, stream: CallStream): void {
    if (this.#closed || !stream.connected) {
      stream.end();
      this.#streams.delete(streamId);
      return;
    }
    stream.onGone = () => this.#streams.delete(streamId);
  }
}
