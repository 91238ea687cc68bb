/**
 * What the hub sends on one extension socket. `tool.invocationStart` does not go out alone: it
 * waits for the next message (the call's `tool.dispatch`, or its `tool.invocationEnd` when the
 * call ends before dispatch) and travels with it in one JSON-RPC batch. Every WebSocket frame
 * costs the browser measurable work, and this saves one per call without any timer. Order is
 * kept: a waiting notification always goes out before anything sent after it.
 */
import { MAX_FRAME_BYTES, type RpcMessage } from "../../protocol/rpc.ts";

/** Notifications that wait for the next message. */
export const DEFERRED_METHODS = new Set(["tool.invocationStart"]);

/** The members of a WebSocket the hub's link uses (tests pass an in-memory one). */
export type LinkSocket = Pick<
  WebSocket,
  "readyState" | "send" | "close" | "onopen" | "onmessage" | "onclose" | "onerror"
>;

export interface Outbox {
  /**
   * Sends (or, for deferred notifications, queues) one message; false if the socket is gone.
   * `text` is the message serialized, when the caller has it already.
   */
  send(message: RpcMessage, text?: string): boolean;
  /** Sends whatever waits. */
  flush(): void;
}

export function createOutbox(socket: LinkSocket, onError: (error: Error) => void): Outbox {
  let waiting: string[] = [];

  function write(text: string): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    try {
      socket.send(text);
      return true;
    } catch (error) {
      onError(error as Error);
      return false;
    }
  }

  const batch = (parts: string[]) => parts.length === 1 ? parts[0] : `[${parts.join(",")}]`;

  function take(): string[] {
    const parts = waiting;
    waiting = [];
    return parts;
  }

  return {
    send(message, text = JSON.stringify(message)) {
      const deferred = "method" in message && !("id" in message) &&
        DEFERRED_METHODS.has(message.method);
      if (deferred) {
        waiting.push(text);
        return socket.readyState === WebSocket.OPEN;
      }
      if (waiting.length === 0) return write(text);
      const parts = take();
      const size = parts.reduce((n, p) => n + p.length, text.length + parts.length + 2);
      // A batch stays under the frame limit (counted in UTF-16 units: at most 3 bytes each).
      if (size * 3 > MAX_FRAME_BYTES) {
        write(batch(parts));
        return write(text);
      }
      return write(batch([...parts, text]));
    },
    flush() {
      const parts = take();
      if (parts.length > 0) write(batch(parts));
    },
  };
}
