/**
 * MCP over Streamable HTTP without the SDK client, for tests that need to see and cut SSE streams:
 * a session opened with raw `fetch`, and a reader of `text/event-stream` bodies event by event.
 */
import type { Json } from "./fake_extension.ts";

export const PROTOCOL_VERSION = "2025-11-25";

export interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events from a response body; `cancel()` drops the stream like a lost connection. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /**
   * The next event, or undefined when the stream ended; comment lines (keep-alives) are skipped.
   * Throws when nothing comes for `timeoutMs`, so a stream that wrongly stays open fails the test.
   */
  async next(timeoutMs = 20_000): Promise<SseEvent | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no SSE event and no end within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.#next(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #next(): Promise<SseEvent | undefined> {
    while (true) {
      const end = this.#buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const event = parseBlock(block);
        if (event) return event;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += value;
    }
  }

  /** Events until the stream ends. */
  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let e = await this.next(); e; e = await this.next()) events.push(e);
    return events;
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function parseBlock(block: string): SseEvent | undefined {
  const event: SseEvent = { data: "" };
  let fields = 0;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields++;
    if (name === "id") event.id = value;
    else if (name === "event") event.event = value;
    else if (name === "retry") event.retry = Number(value);
    else if (name === "data") data.push(value);
  }
  event.data = data.join("\n");
  return fields > 0 ? event : undefined;
}

/** The JSON-RPC messages among `events` (priming events have no data). */
export function messagesOf(events: SseEvent[]): Json[] {
  return events.filter((e) => e.data.trim() !== "").map((e) => JSON.parse(e.data));
}

/** An MCP session opened with raw requests at `url` (`…/mcp`), protocol 2025-11-25. */
export class RawMcpSession {
  #nextId = 1;

  private constructor(readonly url: string, readonly secret: string, readonly id: string) {}

  static async open(url: string, secret: string, name = "raw-test"): Promise<RawMcpSession> {
    const res = await fetch(url, {
      method: "POST",
      headers: rawHeaders(secret),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name, version: "1.0.0" },
        },
      }),
    });
    const id = res.headers.get("mcp-session-id");
    await res.body?.cancel();
    if (res.status !== 200 || !id) throw new Error(`initialize: HTTP ${res.status}`);
    const session = new RawMcpSession(url, secret, id);
    const done = await session.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    await done.body?.cancel();
    return session;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...rawHeaders(this.secret),
      "mcp-session-id": this.id,
      "mcp-protocol-version": PROTOCOL_VERSION,
      ...extra,
    };
  }

  post(message: Json): Promise<Response> {
    return fetch(this.url, {
      method: "POST",
      headers: this.headers(),
      body: JSON.stringify(message),
    });
  }

  /** Sends a request; resolves with its id and the open SSE stream of the answer. */
  async request(method: string, params: Json): Promise<{ id: number; sse: SseReader }> {
    const id = this.#nextId++;
    const res = await this.post({ jsonrpc: "2.0", id, method, params });
    if (res.status !== 200 || !res.body) throw new Error(`${method}: HTTP ${res.status}`);
    return { id, sse: new SseReader(res.body) };
  }

  /** `GET` with `Last-Event-ID`: the resumed stream (or the error response). */
  resume(lastEventId: string): Promise<Response> {
    return fetch(this.url, {
      method: "GET",
      headers: this.headers({ accept: "text/event-stream", "last-event-id": lastEventId }),
    });
  }

  async close(): Promise<void> {
    const res = await fetch(this.url, { method: "DELETE", headers: this.headers() });
    await res.body?.cancel();
  }
}

function rawHeaders(secret: string): Record<string, string> {
  return {
    authorization: `Bearer ${secret}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
}
