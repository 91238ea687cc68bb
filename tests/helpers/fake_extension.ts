/**
 * A scripted stand-in for the hub extension: a real WebSocket client on `/ws` that records what
 * the hub sends, answers `tool.dispatch` the way a test tells it to, and sends the extension's
 * requests and notifications. For protocol paths; the real extension is tested in a browser.
 */
import type { DispatchParams, DispatchResult, TabStateChange } from "../../protocol/events.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

export interface ReceivedMessage {
  id?: number | string;
  method?: string;
  params?: Json;
  result?: Json;
  error?: Json;
}

/** What a dispatch handler returns: a result, or "hang" to never answer. */
export type DispatchHandler = (
  params: DispatchParams,
  ext: FakeExtension,
) => DispatchResult | "hang" | Promise<DispatchResult | "hang">;

export class FakeExtension {
  readonly received: ReceivedMessage[] = [];
  readonly closed: Promise<CloseEvent>;
  #waiters: { test: (m: ReceivedMessage) => boolean; resolve: (m: ReceivedMessage) => void }[] = [];
  #nextId = 1;
  #listeners: ((message: ReceivedMessage) => void)[] = [];
  #dispatch: DispatchHandler = (p) => ({ ok: true, value: { echo: p.input } });

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.addEventListener("close", resolve));
    socket.addEventListener("message", (event) => this.#receive(event.data));
  }

  /** Connects with `Sec-WebSocket-Protocol: hub, <secret>`; rejects when the hub refuses. */
  static connect(port: number, secret: string, protocols?: string[]): Promise<FakeExtension> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, protocols ?? ["hub", secret]);
    return new Promise((resolve, reject) => {
      socket.onopen = () => resolve(new FakeExtension(socket));
      socket.onerror = () => reject(new Error("WebSocket connection to /ws failed"));
    });
  }

  /** How `tool.dispatch` requests are answered from now on. */
  onDispatch(handler: DispatchHandler): void {
    this.#dispatch = handler;
  }

  /** One frame: a message, or a batch of them (the hub batches some notifications). */
  #receive(data: unknown) {
    const parsed = JSON.parse(String(data)) as ReceivedMessage | ReceivedMessage[];
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.#receiveOne(message);
  }

  /** Calls `listener` with every message from now on (each message of a batch on its own). */
  onMessage(listener: (message: ReceivedMessage) => void): void {
    this.#listeners.push(listener);
  }

  #receiveOne(message: ReceivedMessage) {
    this.received.push(message);
    for (const listener of this.#listeners) listener(message);
    for (const w of [...this.#waiters]) {
      if (w.test(message)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
    if (message.method === "tool.dispatch") void this.#answerDispatch(message);
  }

  async #answerDispatch(message: ReceivedMessage) {
    const result = await this.#dispatch(message.params as DispatchParams, this);
    if (result === "hang") return;
    this.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  }

  /** The next message (already received or still to come) that passes `test`. */
  waitFor(test: (m: ReceivedMessage) => boolean, timeoutMs = 10_000): Promise<ReceivedMessage> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("FakeExtension.waitFor timed out")),
        timeoutMs,
      );
      this.#waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** The next message with this method that arrives from now on. */
  next(method: string, timeoutMs = 10_000): Promise<ReceivedMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`FakeExtension: no ${method} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        test: (m) => m.method === method,
        resolve: (m) => (clearTimeout(timer), resolve(m)),
      });
    });
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  notify(method: string, params?: Json): void {
    this.sendRaw(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  /** Sends a request and resolves with the whole response (`result` or `error`). */
  async request(method: string, params?: Json): Promise<ReceivedMessage> {
    const id = `ext-${this.#nextId++}`;
    const reply = this.waitFor((m) => m.id === id && m.method === undefined);
    this.sendRaw(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return await reply;
  }

  /** Reports one plugin's tabs (`tab.stateChanged`), all ready unless said otherwise. */
  async setTabs(
    plugin: string,
    tabs: { tabId: number; url: string; title?: string; ready?: boolean }[],
  ): Promise<void> {
    const change: TabStateChange = {
      plugin,
      state: tabs.length === 0
        ? "closed"
        : tabs.some((t) => t.ready !== false)
        ? "ready"
        : "unavailable",
      tabs: tabs.map((t) => ({
        tabId: t.tabId,
        url: t.url,
        title: t.title ?? "",
        ready: t.ready ?? true,
      })),
    };
    const reply = await this.request("tab.stateChanged", change);
    if (reply.error) throw new Error(`tab.stateChanged refused: ${JSON.stringify(reply.error)}`);
  }

  progress(dispatchId: string, progress: number, total?: number, message?: string): void {
    this.notify("tool.progress", { dispatchId, progress, total, message });
  }

  confirm(id: string, decision: "allow" | "deny", alwaysAllow?: boolean): void {
    this.notify("confirmation.response", { id, decision, alwaysAllow });
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000, "test done");
    await this.closed;
  }
}
