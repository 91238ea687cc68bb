/**
 * The SSE stream of one request the front answers, once it has to stream (a slow call, or one that
 * reports progress). Every event it sends is stored first, so a client whose connection dropped
 * resumes with `GET` + `Last-Event-ID`: the resume replays what it missed and takes the stream over
 * (the old connection ends), and the rest of the request's events go to the new one.
 */
/** A comment line every 15 s keeps proxies and idle timeouts from cutting a long call's stream. */
export const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

/** The headers of every SSE stream the hub answers itself (the SDK's own values). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
};

/** One SSE event with its id (the JSON-RPC message already serialized). */
export function sseEvent(eventId: string, json: string): string {
  return `event: message\nid: ${eventId}\ndata: ${json}\n\n`;
}

/** Stored events as SSE text, for a replay. */
export function sseEvents(events: readonly { id: string; message: unknown }[]): string {
  return events.map((e) => sseEvent(e.id, JSON.stringify(e.message))).join("");
}

/** The first event of a resumable stream: an id to resume from, the retry delay, no data. */
export function primingEvent(eventId: string, retryMs: number): string {
  return `id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`;
}

export class CallStream {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #ended = false;
  /** Called when the client closes the current connection. */
  onGone: (() => void) | undefined;

  /** Opens the first connection's body, starting with `first` (the priming event or nothing). */
  open(first: string): ReadableStream<Uint8Array> {
    return this.#connect(first);
  }

  /** A resumed connection: it replaces the current one (which ends) and starts with `replay`. */
  takeOver(replay: string): ReadableStream<Uint8Array> {
    this.#detach(true);
    return this.#connect(replay);
  }

  /** Whether a client connection is open on it. */
  get connected(): boolean {
    return this.#controller !== undefined;
  }

  /** Sends an event on the current connection, if one is open (the event is already stored). */
  send(text: string): void {
    if (!this.#controller || text === "") return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#detach(false);
    }
  }

  /** Sends the last event and ends the stream; later resumes are served from the store. */
  end(text = ""): void {
    this.send(text);
    this.#ended = true;
    this.#detach(true);
  }

  #connect(first: string): ReadableStream<Uint8Array> {
    let self!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller;
      },
      cancel: () => {
        // The client went away: events are still stored for its resume.
        if (this.#controller !== self) return;
        this.#detach(false);
        this.onGone?.();
      },
    });
    if (this.#ended) {
      if (first !== "") self.enqueue(encoder.encode(first));
      self.close();
      return body;
    }
    this.#controller = self;
    this.send(first);
    this.#keepAlive = setInterval(() => this.send(": keepalive\n\n"), KEEP_ALIVE_MS);
    return body;
  }

  #detach(close: boolean) {
    clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    const controller = this.#controller;
    this.#controller = undefined;
    if (close) {
      try {
        controller?.close();
      } catch {
        // already closed or cancelled
      }
    }
  }
}
