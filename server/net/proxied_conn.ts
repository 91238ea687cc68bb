/**
 * One client connection relayed to the real HTTP server: bytes pass through unchanged in both
 * directions while a request scan follows the client's side (request heads, bodies, WebSocket
 * frames) and refuses what it must. The upstream connection is opened only when the client sends
 * its first bytes, so an idle connection costs one descriptor. A request head that carries the
 * hub's secret marks the connection trusted, so a flood at the cap takes strangers first.
 */
import { createRequestScan, type RequestScan } from "./request_scan.ts";
import type { RequestHead } from "./request_head.ts";
import type { TrackedConn } from "./conn_table.ts";
import { readUpgradeAnswer, type UpgradeAnswer } from "./upgrade_answer.ts";
import {
  badRequest,
  closeQuietly,
  closeWriteQuietly,
  serverUnavailable,
  writeAll,
} from "./conn_io.ts";
import { errorText } from "../../protocol/clip.ts";

/** Read buffer per direction; a connection holds at most two. */
const BUFFER_BYTES = 16 * 1024;
/**
 * The server's answers to a connection that showed the secret are read with this buffer once one
 * read filled the small one, until a read fits the small one again: a 1 MB `tools/list` crosses
 * the relay in a few reads instead of about 70. Strangers never get one, so at most the user's own
 * clients hold it, and only while a large answer streams.
 */
const LARGE_BUFFER_BYTES = 256 * 1024;
/** After a refused request, the server has this long to finish answering the earlier ones. */
const DRAIN_MS = 10_000;
/** After the last answer, what the client still sends is read and dropped this long at most. */
const LINGER_MS = 2_000;
/** A closed connection waits this long at most for the server to close its side (see #retire). */
const SERVER_CLOSE_WAIT_MS = 1_000;

export interface ProxiedConn extends TrackedConn {
  /** Relays until either side closes; never rejects. */
  run(): Promise<void>;
}

export interface ProxyDeps {
  connectUpstream(): Promise<Deno.Conn>;
  maxWsMessageBytes: number;
  /** Whether these header values carry the hub's secret (checked until one head does). */
  isTrusted?(authorization: string | undefined, wsProtocol: string | undefined): boolean;
  /** Called once when the connection closes, with why when it was closed on purpose. */
  onClose(conn: ProxiedConn, reason?: string): void;
  /**
   * Called once when the client's first bytes arrive, before the connection to the server is
   * opened: it will hold more descriptors now. A promise is awaited (room is being made).
   */
  onFirstBytes?(conn: ProxiedConn): Promise<unknown> | void;
  /** Called once when the connection starts closing (`closing` has just become true). */
  onClosing?(conn: ProxiedConn): void;
}

export function proxyConnection(client: Deno.Conn, deps: ProxyDeps): ProxiedConn {
  return new ProxiedConnection(client, deps);
}

class ProxiedConnection implements ProxiedConn {
  lastActive = Date.now();
  headSince: number | undefined = this.lastActive;
  silent = true;
  upgraded = false;
  trusted = false;
  closing = false;
  readonly #scan: RequestScan;
  #upstream: Deno.Conn | undefined;
  #connecting = false;
  /** We ended our side towards the server (FIN). */
  #upstreamWriteEnded = false;
  /** The server ended its side, or reading from it failed. */
  #upstreamEnded = false;
  #closed = false;
  #finished = false;
  #closeReason: string | undefined;
  /** Set from the moment an upgrade request is forwarded until the server's answer is read. */
  #awaitingAnswer: { reader: UpgradeAnswer; resolve: (status: number) => void } | undefined;
  #forwarded = 0;
  #refused = false;
  /** The client sent its end (EOF). */
  #clientEnded = false;
  /** Our side towards the client is finished; what it still sends is dropped until the close. */
  #lingering = false;
  /** Writing to the server failed: it closed its side; the client's bytes are dropped. */
  #upstreamBroken = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly client: Deno.Conn, readonly deps: ProxyDeps) {
    this.#scan = createRequestScan(deps.maxWsMessageBytes, (head) => this.#checkTrust(head));
  }

  close(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.closing = true;
    this.deps.onClosing?.(this);
    this.#closeReason = reason ?? this.#closeReason; // a linger's reason
    clearTimeout(this.#timer);
    closeQuietly(this.client);
    this.#answer(0);
    if (!this.#connecting) this.#retire();
  }

  /**
   * Ends our side towards the server and waits (SERVER_CLOSE_WAIT_MS at most) until the server
   * closes its side before the final close. The server's descriptor for this connection stays in
   * use until it has read our end, and under a flood it reads late: until then the connection is
   * still counted (as closing) so the cap keeps bounding the descriptors the hub uses.
   */
  #retire(): void {
    if (!this.#upstream || this.#upstreamEnded) return this.#finish();
    this.#endUpstream(() => {});
    this.#timer = setTimeout(() => this.#finish(), SERVER_CLOSE_WAIT_MS);
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#timer);
    if (this.#upstream) closeQuietly(this.#upstream);
    this.deps.onClose(this, this.#closeReason);
  }

  /** Sends our end (FIN) to the server once; `onFailure` runs when the connection is gone. */
  #endUpstream(onFailure: () => void): void {
    if (!this.#upstream || this.#upstreamWriteEnded) return;
    this.#upstreamWriteEnded = true;
    closeWriteQuietly(this.#upstream, onFailure);
  }

  run(): Promise<void> {
    return this.#clientToServer().catch(() => this.close());
  }

  #checkTrust(head: RequestHead): void {
    if (this.trusted || (head.authorization === undefined && head.wsProtocol === undefined)) return;
    this.trusted = this.deps.isTrusted?.(head.authorization, head.wsProtocol) ?? false;
  }

  /** Hands the status of the upgrade answer (0 = none) to the waiting client side, once. */
  #answer(status: number): void {
    const waiting = this.#awaitingAnswer;
    this.#awaitingAnswer = undefined;
    waiting?.resolve(status);
  }

  async #clientToServer(): Promise<void> {
    const buffer = new Uint8Array(BUFFER_BYTES);
    while (!this.#closed) {
      const n = await this.client.read(buffer);
      if (this.#closed) return;
      if (n === null) {
        this.#clientEnded = true;
        return this.#lingering ? this.close() : this.#halfClose();
      }
      if (this.silent) {
        // Silence ended: the head deadline counts from the first byte (a client slow to start
        // is no slowloris, and must not be the first to give way while room is made for it).
        this.silent = false;
        this.headSince = Date.now();
        const room = this.deps.onFirstBytes?.(this);
        if (room) await room;
        if (this.#closed) return;
      }
      if (this.#refused || this.#lingering || this.#upstreamBroken) continue; // see #linger()
      this.lastActive = Date.now();
      if (!this.#upstream && !await this.#connect()) continue; // closed, or answered 503
      await this.#relay(this.#upstream!, buffer.subarray(0, n));
    }
  }

  /**
   * Opens the connection to the server; false when it was not opened or the client connection is
   * closed by then. When the server cannot be reached (it is being restarted), the client gets a
   * 503 that says to retry; what it still sends is dropped until it ends (see #linger()).
   */
  async #connect(): Promise<boolean> {
    this.#connecting = true;
    let upstream: Deno.Conn;
    try {
      upstream = await this.deps.connectUpstream();
    } catch (error) {
      this.#connecting = false;
      if (this.#closed) {
        this.#retire();
        return false;
      }
      this.#refused = true;
      await writeAll(this.client, serverUnavailable()).catch(() => {});
      this.#linger(`cannot reach the internal HTTP server: ${errorText(error)}`);
      return false;
    }
    this.#connecting = false;
    this.#upstream = upstream;
    void this.#serverToClient(upstream);
    if (this.#closed) this.#retire();
    return !this.#closed;
  }

  /** Passes one chunk through the scan to the server, waiting for an upgrade answer on the way. */
  async #relay(target: Deno.Conn, chunk: Uint8Array): Promise<void> {
    while (!this.#closed) {
      const step = this.#scan.push(chunk);
      // Before any wait (an upgrade answer, a slow server): a complete head is not a slow one.
      this.headSince = this.#scan.headPending ? (this.headSince ?? this.lastActive) : undefined;
      if (step.error) {
        if (step.forward > 0) await this.#forward(target, chunk.subarray(0, step.forward));
        return await this.#refuse(step.error);
      }
      const answered = step.awaitUpgrade
        ? new Promise<number>((resolve) => {
          this.#awaitingAnswer = { reader: readUpgradeAnswer(), resolve };
        })
        : undefined;
      if (step.forward > 0) await this.#forward(target, chunk.subarray(0, step.forward));
      if (!answered) return;
      const status = await answered;
      if (this.#closed) return;
      this.#scan.answerUpgrade(status);
      this.upgraded = this.#scan.upgraded;
      chunk = chunk.subarray(step.forward);
      if (chunk.length === 0) return;
    }
  }

  /**
   * Passes bytes to the server. When the server has closed (it answered early, e.g. a 400, and
   * stopped reading), the rest of the request is dropped and its answer still reaches the client.
   */
  async #forward(target: Deno.Conn, bytes: Uint8Array): Promise<void> {
    this.#forwarded += bytes.length;
    try {
      await writeAll(target, bytes);
    } catch {
      this.#upstreamBroken = true;
    }
  }

  /**
   * Stops a request the scan cannot follow. A WebSocket closes at once (its frames must not be
   * buffered); a first request is answered 400 by the guard itself; after earlier requests, the
   * server finishes answering those (its side is half-closed), then the connection closes.
   */
  async #refuse(why: string): Promise<void> {
    this.#refused = true;
    if (this.#closed) return; // its timer must not replace the wait in #retire()
    const reason = `refused: ${why}`;
    if (this.upgraded) return this.close(reason);
    if (this.#forwarded === 0) {
      await writeAll(this.client, badRequest(why)).catch(() => {});
      return this.#linger(reason);
    }
    this.#timer = setTimeout(() => this.close(reason), DRAIN_MS);
    this.#endUpstream(() => this.close(reason));
  }

  /**
   * Ends our side towards the client (FIN), then reads and drops what it still sends until it ends
   * too or LINGER_MS pass. Closing a socket with unread bytes resets the connection, and the reset
   * can destroy the answer before the client has read it.
   */
  #linger(reason?: string): void {
    if (this.#closed || this.#lingering) return;
    if (this.#clientEnded) return this.close(reason);
    this.#lingering = true;
    this.#closeReason = reason;
    this.#endUpstream(() => {}); // the server's end is awaited at the close (#retire)
    closeWriteQuietly(this.client, () => this.close(reason));
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.close(reason), LINGER_MS);
  }

  #halfClose(): void {
    if (this.#closed) return;
    if (!this.#upstream) return this.close();
    this.#endUpstream(() => this.close()); // the server still answers what it was sent
  }

  async #serverToClient(source: Deno.Conn): Promise<void> {
    const small = new Uint8Array(BUFFER_BYTES);
    let buffer: Uint8Array = small;
    try {
      while (true) {
        const n = await source.read(buffer);
        if (n === null) break;
        if (this.#closed || this.#lingering) continue; // only waiting for the server's end
        this.lastActive = Date.now();
        const chunk = buffer.subarray(0, n);
        if (this.#awaitingAnswer) this.#readAnswer(chunk);
        await writeAll(this.client, chunk).catch(() => this.close());
        buffer = this.#nextBuffer(buffer, small, n);
      }
    } catch {
      // the server went away, or we closed the connection after SERVER_CLOSE_WAIT_MS
    }
    this.#upstreamEnded = true;
    if (this.#closed) this.#finish();
    else this.#linger();
  }

  /** The buffer for the next read from the server (see LARGE_BUFFER_BYTES). */
  #nextBuffer(buffer: Uint8Array, small: Uint8Array, read: number): Uint8Array {
    if (read < BUFFER_BYTES) return small;
    if (buffer !== small || !this.trusted || this.upgraded) return buffer;
    return new Uint8Array(LARGE_BUFFER_BYTES);
  }

  /** Feeds the server's bytes to the upgrade answer reader until it knows the status. */
  #readAnswer(chunk: Uint8Array): void {
    const result = this.#awaitingAnswer!.reader.push(chunk);
    if (typeof result === "string") this.close(result);
    else if (result !== undefined) this.#answer(result);
  }
}
