/**
 * The panel's end of the runtime port to the service worker (panel_messages.ts): receives state
 * pushes, sends commands and matches each `reply` to its request. When the port closes (the
 * worker was stopped or reloaded), waiting requests fail with a clear message and the client
 * connects again, which wakes the worker.
 */
import {
  commandError,
  type PanelCommand,
  type PanelMessage,
  type PanelRequest,
  type PanelResult,
  type PanelState,
  replyTimeoutMs,
} from "../shared/panel_messages.ts";

/** The part of `chrome.runtime.Port` the client uses. */
export interface PortLike {
  postMessage(message: PanelRequest): void;
  onMessage: { addListener(listener: (message: PanelMessage) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

export interface PanelClient {
  /**
   * Sends a command; resolves with an ok reply's result, rejects with a `CommandError` holding
   * the worker's error text (and the hub's code).
   */
  send<C extends PanelCommand>(command: C): Promise<PanelResult<C>>;
  close(): void;
}

export interface PanelClientEvents {
  onState(state: PanelState): void;
  /** The port closed; `reconnectInMs` later the client connects again. */
  onPortLost?(reconnectInMs: number): void;
}

export const RECONNECT_MS = 500;

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export function createPanelClient(
  connect: () => PortLike,
  events: PanelClientEvents,
): PanelClient {
  let port: PortLike | undefined;
  let nextId = 1;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const waiting = new Map<number, Waiting>();

  function settle(requestId: number, error?: Error, result?: unknown) {
    const w = waiting.get(requestId);
    if (!w) return;
    waiting.delete(requestId);
    clearTimeout(w.timer);
    if (error) w.reject(error);
    else w.resolve(result);
  }

  function onMessage(message: PanelMessage) {
    if (message.type === "state") events.onState(message.state);
    else if (message.type === "reply") {
      if (message.ok) settle(message.requestId, undefined, message.result);
      else settle(message.requestId, commandError(message.error, message.code));
    }
  }

  function onDisconnect(lost: PortLike) {
    if (port !== lost) return;
    port = undefined;
    for (const id of [...waiting.keys()]) {
      settle(id, new Error("The extension restarted before answering. Try again."));
    }
    if (closed) return;
    events.onPortLost?.(RECONNECT_MS);
    retry = setTimeout(open, RECONNECT_MS);
  }

  function open() {
    if (closed) return;
    const opened = connect();
    port = opened;
    opened.onMessage.addListener(onMessage);
    opened.onDisconnect.addListener(() => onDisconnect(opened));
  }

  open();

  return {
    send<C extends PanelCommand>(command: C): Promise<PanelResult<C>> {
      if (!port) {
        return Promise.reject(
          new Error("Not connected to the extension yet. Wait a moment, then try again."),
        );
      }
      const requestId = nextId++;
      const timeoutMs = replyTimeoutMs(command);
      const promise = new Promise<PanelResult<C>>((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(
            requestId,
            new Error(`The extension did not answer within ${timeoutMs / 1000} s. Try again.`),
          );
        }, timeoutMs);
        waiting.set(requestId, { resolve: resolve as (r: unknown) => void, reject, timer });
      });
      port.postMessage({ requestId, command });
      return promise;
    },
    close() {
      closed = true;
      clearTimeout(retry);
      for (const id of [...waiting.keys()]) settle(id, new Error("The panel closed."));
      port?.disconnect();
      port = undefined;
    },
  };
}
