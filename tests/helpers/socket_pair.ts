/**
 * Two connected in-memory WebSockets for unit tests: each end has the members the hub's link uses
 * (`readyState`, `send`, `close`, `onopen`, `onmessage`, `onclose`, `onerror`), and what one end
 * sends reaches the other in a later task, in order, as over a real socket. Nothing is open until
 * `open()`; `close()` on either end closes both, after the frames already under way.
 */

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

type Handler<E> = ((event: E) => unknown) | null;

export interface CloseInfo {
  code: number;
  reason: string;
}

export class PairSocket {
  readyState = CONNECTING;
  onopen: Handler<Event> = null;
  onmessage: Handler<MessageEvent> = null;
  onclose: Handler<CloseEvent> = null;
  onerror: Handler<Event> = null;
  /** Every frame this end sent, in order. */
  readonly sent: string[] = [];
  /** How this end was closed (by either side), once it is. */
  closed?: CloseInfo;
  other!: PairSocket;

  send(data: string): void {
    if (this.readyState === CONNECTING) {
      throw new DOMException("send() before the socket is open", "InvalidStateError");
    }
    if (this.readyState !== OPEN) return; // a closing socket drops what it is given
    this.sent.push(data);
    const to = this.other;
    later(() => {
      if (to.readyState === OPEN) to.onmessage?.(new MessageEvent("message", { data }));
    });
  }

  close(code = 1000, reason = ""): void {
    if (this.readyState === CLOSING || this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    this.other.readyState = CLOSING;
    later(() => {
      for (const end of [this, this.other]) end.finish({ code, reason });
    });
  }

  /** An error on the connection: `error`, then `close` with 1006, on both ends. */
  fail(): void {
    this.readyState = CLOSING;
    this.other.readyState = CLOSING;
    later(() => {
      for (const end of [this, this.other]) {
        end.onerror?.(new Event("error"));
        end.finish({ code: 1006, reason: "" });
      }
    });
  }

  private finish(info: CloseInfo) {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.closed = info;
    this.onclose?.(new CloseEvent("close", { ...info, wasClean: info.code !== 1006 }));
  }
}

export interface SocketPair {
  /** The end the hub holds (what `upgradeWebSocket` would give it). */
  hub: PairSocket;
  /** The end the extension holds. */
  extension: PairSocket;
  /** Opens both ends; `onopen` runs on each in a later task. Resolves once it has. */
  open(): Promise<void>;
}

export function socketPair(): SocketPair {
  const hub = new PairSocket();
  const extension = new PairSocket();
  hub.other = extension;
  extension.other = hub;
  return {
    hub,
    extension,
    open: () =>
      new Promise((resolve) =>
        later(() => {
          for (const end of [hub, extension]) {
            end.readyState = OPEN;
            end.onopen?.(new Event("open"));
          }
          resolve();
        })
      ),
  };
}

/** Runs `fn` in a later task; tasks run in the order they were queued. */
function later(fn: () => void) {
  setTimeout(fn, 0);
}
