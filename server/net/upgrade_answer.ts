/**
 * Reads the status of the server's answer to a WebSocket upgrade request from the bytes it sends
 * back, skipping 1xx interim heads, so the guard knows whether the connection became a WebSocket.
 */

/** The server's answer to an upgrade request is a short head; more means something is wrong. */
const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;

export interface UpgradeAnswer {
  /**
   * Takes the next bytes from the server: the final status once its head is complete (101 = a
   * WebSocket), undefined while it is still arriving, or an error text when it cannot be read.
   */
  push(chunk: Uint8Array): number | string | undefined;
}

export function readUpgradeAnswer(): UpgradeAnswer {
  let head = "";
  const decoder = new TextDecoder();
  return {
    push(chunk) {
      head += decoder.decode(chunk, { stream: true });
      while (true) {
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) {
          return head.length > MAX_RESPONSE_HEAD_BYTES ? "unreadable upgrade answer" : undefined;
        }
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
        head = head.slice(end + 4);
        if (status === 0) return "unreadable upgrade answer";
        if (status >= 200 || status === 101) return status;
      }
    },
  };
}
