/**
 * The MCP event store that makes Streamable HTTP resumable: every message the hub sends on an SSE
 * stream is kept (bounded) so a client whose stream dropped can reconnect with `GET` and
 * `Last-Event-ID` and receive what it missed, including the result of a call that finished while
 * it was away.
 *
 * One `SessionEventStore` per MCP session: an event id is `<salt>.<seq>.<streamId>` with a random
 * salt per session, so an id only resolves in the session that issued it. Bounds: each session
 * keeps at most `maxEvents` events and `maxBytes` bytes (JSON length), all sessions together
 * `maxTotalBytes`; the oldest events go first, notifications of the session's GET stream before
 * events of request streams (those carry tool results).
 *
 * It leaves out the SDK's optional `getStreamIdForEventId` on purpose: with it, the SDK answers 409
 * to a resume while the old stream still looks open to the server (a half-open connection, the
 * usual way streams die), and the client would lose the result. Without it, the resume takes the
 * stream over.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from "./sdk.ts";
import { rpcErrorOf, serverError } from "./protocol_errors.ts";

export interface EventStoreLimits {
  /** Events one session keeps. */
  maxEvents: number;
  /** Bytes (length of the JSON) one session keeps. */
  maxBytes: number;
  /** Bytes all sessions keep together. */
  maxTotalBytes: number;
}

export const EVENT_STORE_LIMITS: EventStoreLimits = {
  maxEvents: 1_000,
  maxBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
};

/** The SDK's id for a session's standalone GET stream (server-initiated notifications). */
export const STANDALONE_STREAM = "_GET_stream";
/** Last-Event-ID values longer than this are refused without parsing. */
export const MAX_EVENT_ID_LENGTH = 200;
/** Batches whose request ids are remembered to tell when a batch's stream is complete. */
const MAX_BATCHES = 16;

interface StoredEvent {
  seq: number;
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

interface StreamRecord {
  /** Ids of the responses stored for this stream. */
  responses: Set<string>;
  /** Sequence numbers of this stream's events still kept (so forgetting a stream is O(its events)). */
  seqs: Set<number>;
  /** The request ids of the batch this stream answers; undefined for a single request. */
  batch?: Set<string>;
}

/** What a resume from an event id would replay. */
export interface ResumePoint {
  streamId: StreamId;
  seq: number;
  /** A request stream whose every response is stored: nothing more will be sent on it. */
  finished: boolean;
}

export interface ReplayedEvent {
  id: EventId;
  message: JSONRPCMessage;
}

/** The stores of all sessions; they share the `maxTotalBytes` budget. */
export class EventStores {
  readonly #open = new Set<SessionEventStore>();
  #bytes = 0;

  constructor(readonly limits: EventStoreLimits = EVENT_STORE_LIMITS) {}

  /** A store for a new session; `close()` it when the session ends. */
  open(): SessionEventStore {
    const store = new SessionEventStore(this.limits, {
      add: (bytes) => {
        this.#bytes += bytes;
        this.#trim(store);
      },
      remove: (bytes) => (this.#bytes -= bytes),
      close: () => this.#open.delete(store),
    });
    this.#open.add(store);
    return store;
  }

  /** Bytes kept by all sessions. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Over the shared budget, the session keeping the most bytes drops its oldest events. */
  #trim(writer: SessionEventStore) {
    while (this.#bytes > this.limits.maxTotalBytes) {
      let largest = writer;
      for (const store of this.#open) if (store.bytes > largest.bytes) largest = store;
      if (!largest.evictOne()) break;
    }
  }
}

interface Budget {
  add(bytes: number): void;
  remove(bytes: number): void;
  close(): void;
}

export class SessionEventStore implements EventStore {
  readonly #salt = crypto.randomUUID().slice(0, 8);
  #seq = 0;
  #bytes = 0;
  #closed = false;
  /** Notifications of the GET stream, oldest first; evicted before `#calls`. */
  readonly #notices = new Map<number, StoredEvent>();
  /** Events of request streams (progress, results), oldest first. */
  readonly #calls = new Map<number, StoredEvent>();
  /** Streams this session opened, oldest first; at most `maxEvents`. */
  readonly #streams = new Map<StreamId, StreamRecord>();
  readonly #batches: Set<string>[] = [];

  constructor(readonly limits: EventStoreLimits, private readonly budget: Budget) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#notices.size + this.#calls.size;
  }

  /** Remembers the request ids of a JSON-RPC batch, so its stream is complete only with all. */
  noteBatch(requestIds: (string | number)[]): void {
    if (requestIds.length < 2) return;
    this.#batches.push(new Set(requestIds.map(String)));
    if (this.#batches.length > MAX_BATCHES) this.#batches.shift();
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return Promise.resolve(this.store(streamId, message));
  }

  /** Keeps `message` and returns its event id; `json` is its serialized form when known. */
  store(streamId: StreamId, message: JSONRPCMessage, json?: string): EventId {
    const seq = ++this.#seq;
    const id = `${this.#salt}.${seq}.${streamId}`;
    if (this.#closed) return id;
    const record = this.#stream(streamId);
    let bytes = json?.length ?? JSON.stringify(message).length;
    if (bytes > this.limits.maxBytes) {
      if (!isResponse(message)) return id;
      message = tooLargeToKeep(message, bytes);
      bytes = JSON.stringify(message).length;
    }
    this.#noteResponse(record, message);
    const queue = streamId === STANDALONE_STREAM ? this.#notices : this.#calls;
    queue.set(seq, { seq, id, streamId, message, bytes });
    record.seqs.add(seq);
    this.#bytes += bytes;
    while (this.size > this.limits.maxEvents || this.#bytes > this.limits.maxBytes) {
      this.evictOne();
    }
    this.budget.add(bytes);
    return id;
  }

  /** Where a resume from `eventId` starts; undefined for an id this session did not issue. */
  resumePoint(eventId: string): ResumePoint | undefined {
    if (eventId.length > MAX_EVENT_ID_LENGTH) return undefined;
    const first = eventId.indexOf(".");
    const second = eventId.indexOf(".", first + 1);
    if (first < 0 || second < 0 || eventId.slice(0, first) !== this.#salt) return undefined;
    const seqText = eventId.slice(first + 1, second);
    const seq = Number(seqText);
    if (!/^[1-9][0-9]{0,15}$/.test(seqText) || seq > this.#seq) return undefined;
    const streamId = eventId.slice(second + 1);
    const record = this.#streams.get(streamId);
    if (!record) return undefined;
    return { streamId, seq, finished: this.#finished(streamId, record) };
  }

  /** The stored messages of the point's stream sent after it (priming events left out). */
  eventsAfter(point: ResumePoint): ReplayedEvent[] {
    const queue = point.streamId === STANDALONE_STREAM ? this.#notices : this.#calls;
    const events: ReplayedEvent[] = [];
    for (const event of queue.values()) {
      if (event.streamId !== point.streamId || event.seq <= point.seq) continue;
      if (Object.keys(event.message).length > 0) events.push(event);
    }
    return events;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const point = this.resumePoint(lastEventId);
    if (!point) throw new Error(unknownEventIdMessage(this.limits));
    for (const event of this.eventsAfter(point)) await send(event.id, event.message);
    return point.streamId;
  }

  /** Drops the oldest event, a GET-stream notification first; false when there is none. */
  evictOne(): boolean {
    const queue = this.#notices.size > 0 ? this.#notices : this.#calls;
    const oldest = queue.values().next();
    if (oldest.done) return false;
    queue.delete(oldest.value.seq);
    this.#streams.get(oldest.value.streamId)?.seqs.delete(oldest.value.seq);
    this.#bytes -= oldest.value.bytes;
    this.budget.remove(oldest.value.bytes);
    return true;
  }

  /** Frees everything; later events are not kept. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.budget.remove(this.#bytes);
    this.budget.close();
    this.#bytes = 0;
    this.#notices.clear();
    this.#calls.clear();
    this.#streams.clear();
  }

  #stream(streamId: StreamId): StreamRecord {
    let record = this.#streams.get(streamId);
    if (record) return record;
    record = { responses: new Set(), seqs: new Set() };
    this.#streams.set(streamId, record);
    if (this.#streams.size > this.limits.maxEvents) this.#forgetOldestStream();
    return record;
  }

  /** Drops the oldest stream record and whatever of its events is still kept. */
  #forgetOldestStream() {
    const [[oldest, record]] = this.#streams;
    this.#streams.delete(oldest);
    const queue = oldest === STANDALONE_STREAM ? this.#notices : this.#calls;
    for (const seq of record.seqs) {
      const event = queue.get(seq);
      if (!event) continue;
      queue.delete(seq);
      this.#bytes -= event.bytes;
      this.budget.remove(event.bytes);
    }
  }

  #noteResponse(record: StreamRecord, message: JSONRPCMessage) {
    if (!isResponse(message)) return;
    const id = String(message.id);
    record.responses.add(id);
    if (record.batch) return;
    const index = this.#batches.findIndex((batch) => batch.has(id));
    if (index >= 0) record.batch = this.#batches.splice(index, 1)[0];
  }

  #finished(streamId: StreamId, record: StreamRecord): boolean {
    if (streamId === STANDALONE_STREAM || record.responses.size === 0) return false;
    return !record.batch || [...record.batch].every((id) => record.responses.has(id));
  }
}

type Response = JSONRPCMessage & { id: string | number };

function isResponse(message: JSONRPCMessage): message is Response {
  return "id" in message && ("result" in message || "error" in message);
}

/** A response too large to keep is replayed as an error that says so. */
function tooLargeToKeep(message: Response, bytes: number): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: rpcErrorOf(
      serverError(
        `The result (${bytes} bytes) was sent but is too large to keep for a resumed ` +
          "stream; make the call again.",
      ),
    ),
  };
}

export function unknownEventIdMessage(limits: EventStoreLimits): string {
  return "Last-Event-ID is unknown to this session: it was not issued by this session, or its " +
    `stream is older than the last ${limits.maxEvents} events the session keeps. Reconnect ` +
    "without Last-Event-ID; a call whose result was lost must be made again.";
}
