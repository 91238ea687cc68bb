/**
 * What the hub sends on one extension socket: each message in its own frame, at once, and only
 * while the socket is open. A call costs one frame each way (`tool.dispatch` and its reply); the
 * extension learns a call's start and end from those, so nothing else is sent per call
 * (docs/protocol.md, "Calls in the activity list").
 */
import type { RpcMessage } from "../../protocol/rpc.ts";

/** The members of a WebSocket the hub's link uses (tests pass an in-memory one). */
export type LinkSocket = Pick<
  WebSocket,
  "readyState" | "send" | "close" | "onopen" | "onmessage" | "onclose" | "onerror"
>;

export interface Outbox {
  /**
   * Sends one message; false if the socket is gone or refused it. `text` is the message
   * serialized, when the caller has it already.
   */
  send(message: RpcMessage, text?: string): boolean;
}

export function createOutbox(socket: LinkSocket, onError: (error: Error) => void): Outbox {
  return {
    send(message, text = JSON.stringify(message)) {
      if (socket.readyState !== WebSocket.OPEN) return false;
      try {
        socket.send(text);
        return true;
      } catch (error) {
        onError(error as Error);
        return false;
      }
    },
  };
}
