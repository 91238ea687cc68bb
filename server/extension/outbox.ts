/**
 * What the hub sends on one extension socket. Bookkeeping notifications (`tool.invocationStart`,
 * `tool.invocationEnd`) wait briefly and go out in one JSON-RPC batch with the next message, or
 * on their own a moment later: every WebSocket frame costs the browser measurable work, and a
 * call would otherwise take three frames instead of one. Order is kept: a waiting notification
 * always goes out before anything sent after it.
 */
import { MAX_FRAME_BYTES, type RpcMessage } from "../../protocol/rpc.ts";

export const DEFERRED_METHODS = new Set(["tool.invocationStart", "tool.invocationEnd"]);

export interface Outbox {
  /** Sends (or, for deferred notifications, queues) one message; false if the socket is gone. */
  send(message: RpcMessage): boolean;
  /** Sends whatever waits. */
  flush(): void;
}

export function createOutbox(socket: WebSocket, onError: (error: Error) => void): Outbox {
  let waiting: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

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

  function take(): string[] {
    clearTimeout(timer);
    timer = undefined;
    const parts = waiting;
    waiting = [];
    return parts;
  }

  function flush() {
    const parts = take();
    if (parts.length === 1) write(parts[0]);
    else if (parts.length > 1) write(`[${parts.join(",")}]`);
  }

  return {
    send(message) {
      const text = JSON.stringify(message);
      const deferred = "method" in message && !("id" in message) &&
        DEFERRED_METHODS.has(message.method);
      if (deferred) {
        waiting.push(text);
        timer ??= setTimeout(flush, 0);
        return socket.readyState === WebSocket.OPEN;
      }
      if (waiting.length === 0) return write(text);
      const parts = take();
      const size = parts.reduce((n, p) => n + p.length, text.length + parts.length + 2);
      // A batch stays under the frame limit (counted in UTF-16 units: at most 3 bytes each).
      if (size * 3 > MAX_FRAME_BYTES) {
        write(parts.length === 1 ? parts[0] : `[${parts.join(",")}]`);
        return write(text);
      }
      return write(`[${parts.join(",")},${text}]`);
    },
    flush,
  };
}
