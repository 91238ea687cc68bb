/**
 * Reads a complete HTTP/1.x request head the way the connection guard needs it: how the body that
 * follows is framed, whether it asks for a WebSocket, and the two headers that can carry the hub's
 * secret (so the guard knows which connections are authenticated).
 */

export interface RequestHead {
  /** The request line names HTTP/1.0 or HTTP/1.1. */
  http1: boolean;
  /** Every `Content-Length` value, in order. */
  lengths: string[];
  /** The `Transfer-Encoding` values joined, if any was sent. */
  transferEncoding?: string;
  /** `Upgrade` names `websocket` (case-insensitive), as the server's own check reads it. */
  websocket: boolean;
  /** `Authorization` (repeated headers joined by ", ", as the server sees them). */
  authorization?: string;
  /** `Sec-WebSocket-Protocol` (repeated headers joined by ", "). */
  wsProtocol?: string;
}

/** Parses the head's text (request line and header lines, leading empty lines allowed). */
export function parseRequestHead(text: string): RequestHead {
  const lines = text.replace(/^[\r\n]+/, "").split(/\r?\n/);
  const version = lines[0].split(" ")[2] ?? "";
  const head: RequestHead = {
    http1: /^HTTP\/1\.[01]$/.test(version),
    lengths: [],
    websocket: false,
  };
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") head.lengths.push(value);
    else if (name === "transfer-encoding") {
      head.transferEncoding = join(head.transferEncoding, value);
    } else if (name === "upgrade") head.websocket ||= namesWebSocket(value);
    else if (name === "authorization") head.authorization = join(head.authorization, value);
    else if (name === "sec-websocket-protocol") head.wsProtocol = join(head.wsProtocol, value);
  }
  return head;
}

/** Whether an `Upgrade` value lists `websocket` among its protocols. */
function namesWebSocket(value: string): boolean {
  return value.split(",").some((p) => p.trim().toLowerCase() === "websocket");
}

function join(previous: string | undefined, value: string): string {
  return previous === undefined ? value : `${previous}, ${value}`;
}
