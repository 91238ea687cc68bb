/**
 * Watches the client-to-server bytes of an upgraded WebSocket connection and says when they must
 * be refused: a frame header that declares a message over the limit, a message whose fragments
 * add up to more than the limit, or a frame no client may send. It reads frame headers only and
 * skips payloads by count, so a 50 MB frame is refused from its first 14 bytes, before any of its
 * payload is buffered anywhere.
 */

/** Control frames (close, ping, pong) carry at most this many payload bytes (RFC 6455 §5.5). */
const MAX_CONTROL_PAYLOAD = 125;

export interface WsFrameWatch {
  /**
   * Takes the next bytes from the client. Returns undefined while the stream is acceptable, or why
   * the connection must be closed; then none of `chunk` may be forwarded.
   */
  push(chunk: Uint8Array): string | undefined;
}

/** A watch that refuses messages of more than `maxMessageBytes` payload bytes. */
export function createWsFrameWatch(maxMessageBytes: number): WsFrameWatch {
  const header = new Uint8Array(14);
  let headerLength = 0; // bytes of the current frame header gathered so far
  let skip = 0; // payload bytes of the current frame still to pass
  let messageBytes = 0; // payload bytes of the data message in progress
  let inMessage = false; // a text or binary frame without FIN was seen

  /** Judges a complete header; returns why it is refused, or undefined with `skip` set. */
  function judge(length: number): string | undefined {
    const fin = (header[0] & 0x80) !== 0;
    const opcode = header[0] & 0x0f;
    if (opcode >= 0x8) {
      if (opcode > 0xa) return `unknown control opcode ${opcode}`;
      if (!fin || length > MAX_CONTROL_PAYLOAD) return "control frame fragmented or too long";
    } else if (opcode === 0x0) {
      if (!inMessage) return "continuation frame without a message to continue";
    } else if (opcode <= 0x2) {
      if (inMessage) return "new message before the previous one ended";
      messageBytes = 0;
    } else return `unknown data opcode ${opcode}`;
    if (opcode < 0x8) {
      messageBytes += length;
      if (messageBytes > maxMessageBytes) {
        return `message over the limit of ${maxMessageBytes} bytes`;
      }
      inMessage = !fin;
    }
    skip = length;
    return undefined;
  }

  /** The header length once its first two bytes are known. */
  function headerSize(): number {
    const code = header[1] & 0x7f;
    const extended = code === 126 ? 2 : code === 127 ? 8 : 0;
    return 2 + extended + 4; // + masking key
  }

  /** The declared payload length, or -1 when it does not fit a safe integer. */
  function payloadLength(): number {
    const code = header[1] & 0x7f;
    if (code < 126) return code;
    if (code === 126) return (header[2] << 8) | header[3];
    if (header[2] !== 0 || header[3] > 0x1f) return -1; // over 2^53: refuse outright
    let length = 0;
    for (let i = 2; i < 10; i++) length = length * 256 + header[i];
    return length;
  }

  return {
    push(chunk) {
      let offset = 0;
      while (offset < chunk.length) {
        if (skip > 0) {
          const step = Math.min(skip, chunk.length - offset);
          skip -= step;
          offset += step;
          continue;
        }
        header[headerLength++] = chunk[offset++];
        if (headerLength === 2 && (header[1] & 0x80) === 0) return "client frames must be masked";
        if (headerLength < 2 || headerLength < headerSize()) continue;
        headerLength = 0;
        const length = payloadLength();
        if (length < 0) return "frame length over 2^53 bytes";
        const refusal = judge(length);
        if (refusal) return refusal;
      }
      return undefined;
    },
  };
}
