/**
 * Follows the requests a client sends on one HTTP/1.1 connection, byte by byte through heads and by
 * count through bodies, so the connection guard knows at every moment whether a request head is
 * still arriving (the slowloris clock), where a WebSocket upgrade request ends, and, once upgraded,
 * what frames follow. Anything it cannot follow exactly (both `Content-Length` and
 * `Transfer-Encoding`, an odd length, HTTP/2 bytes, an oversized head) is refused, so no request can
 * hide from it inside what it took for a body.
 */
import { createWsFrameWatch, type WsFrameWatch } from "./ws_frame_watch.ts";
import { createBodyScan } from "./body_scan.ts";
import { parseRequestHead, type RequestHead } from "./request_head.ts";
import { concatBytes } from "../../protocol/bytes.ts";

/** A request head (request line and headers) larger than this closes the connection. */
export const MAX_REQUEST_HEAD_BYTES = 64 * 1024;
const CR = 0x0d;
const LF = 0x0a;

export interface ScanStep {
  /** How many bytes of the chunk may be forwarded now. */
  forward: number;
  /** Set when the connection must be closed (and nothing more forwarded): why. */
  error?: string;
  /**
   * A WebSocket upgrade request ended at `forward`: forward that much, hold the rest until the
   * server's answer is known (`answerUpgrade`), then push the rest again.
   */
  awaitUpgrade?: boolean;
}

export interface RequestScan {
  push(chunk: Uint8Array): ScanStep;
  /** The status of the server's answer to the upgrade request (101 = now a WebSocket). */
  answerUpgrade(status: number): void;
  /** Whether the connection waits for a request head (its first, or a next one already begun). */
  readonly headPending: boolean;
  /** Whether the connection became a WebSocket. */
  readonly upgraded: boolean;
}

/** Told of every complete request head, before the scan judges it. */
export type OnRequestHead = (head: RequestHead) => void;

/** A scan that refuses WebSocket messages over `maxWsMessageBytes`. */
export function createRequestScan(
  maxWsMessageBytes: number,
  onHead: OnRequestHead = () => {},
): RequestScan {
  const heads = createHeadReader();
  const body = createBodyScan();
  let requests = 0;
  let awaitingUpgrade = false;
  let ws: WsFrameWatch | undefined;
  /** Where, in the chunk being pushed, the request now being read began (0: in an earlier one). */
  let requestStart = 0;
  /** Refuses from the start of the offending request: the requests before it are forwarded. */
  const refuse = (error: string): ScanStep => ({ forward: requestStart, error });

  /** Judges a complete head and starts what follows it; returns an error or undefined. */
  function endHead(head: RequestHead): string | undefined {
    onHead(head);
    if (!head.http1) return "not an HTTP/1.x request";
    requests++;
    const { lengths, transferEncoding, websocket } = head;
    if (transferEncoding !== undefined) {
      if (lengths.length > 0) return "both Content-Length and Transfer-Encoding";
      if (transferEncoding.toLowerCase() !== "chunked") {
        return "Transfer-Encoding other than chunked";
      }
      body.startChunked();
      return websocket ? "a WebSocket upgrade with a body" : undefined;
    }
    if (lengths.some((value) => value !== lengths[0] || !/^\d{1,15}$/.test(value))) {
      return "invalid Content-Length";
    }
    const length = lengths.length ? Number(lengths[0]) : 0;
    if (websocket) {
      if (requests > 1) return "a WebSocket upgrade must be the first request on its connection";
      if (length > 0) return "a WebSocket upgrade with a body";
      awaitingUpgrade = true;
    }
    body.startLength(length);
    return undefined;
  }

  /** Scans heads and bodies of plain HTTP requests in `chunk`. */
  function pushHttp(chunk: Uint8Array): ScanStep {
    let offset = 0;
    requestStart = 0;
    while (offset < chunk.length) {
      if (awaitingUpgrade) return { forward: offset, awaitUpgrade: true };
      if (!body.done) {
        const next = body.step(chunk, offset);
        if (typeof next === "string") return refuse(next);
        offset = next;
        continue;
      }
      if (heads.bytes === 0) requestStart = offset;
      const end = heads.scan(chunk, offset);
      if (heads.bytes > MAX_REQUEST_HEAD_BYTES) {
        return refuse(`request head over ${MAX_REQUEST_HEAD_BYTES} bytes`);
      }
      if (end === -1) return { forward: chunk.length };
      const error = endHead(heads.take());
      if (error) return refuse(error);
      offset = end;
    }
    if (awaitingUpgrade) return { forward: offset, awaitUpgrade: true };
    return { forward: chunk.length };
  }

  return {
    get headPending() {
      return !awaitingUpgrade && !ws && body.done && (requests === 0 || heads.bytes > 0);
    },
    get upgraded() {
      return ws !== undefined;
    },
    answerUpgrade(status) {
      if (!awaitingUpgrade) return;
      awaitingUpgrade = false;
      if (status === 101) ws = createWsFrameWatch(maxWsMessageBytes);
    },
    push(chunk) {
      if (!ws) return pushHttp(chunk);
      const error = ws.push(chunk);
      return error ? { forward: 0, error } : { forward: chunk.length };
    },
  };
}

/** Gathers the bytes of one request head at a time, up to its empty line. */
function createHeadReader() {
  let parts: Uint8Array[] = [];
  let bytes = 0; // bytes of the head in progress, leading empty lines included
  let lineLength = 0; // non-CR bytes of the current line
  let lineStarted = false; // the request line has begun (empty lines before it are skipped)
  return {
    get bytes() {
      return bytes;
    },
    /** Reads head bytes from `start`; returns the index after the head, or -1 if it continues. */
    scan(chunk: Uint8Array, start: number): number {
      for (let i = start; i < chunk.length; i++) {
        const byte = chunk[i];
        bytes++;
        if (!lineStarted) {
          if (byte === CR || byte === LF) continue;
          lineStarted = true;
        }
        if (byte === LF) {
          if (lineLength === 0) {
            parts.push(chunk.subarray(start, i + 1));
            return i + 1;
          }
          lineLength = 0;
        } else if (byte !== CR) lineLength++;
      }
      parts.push(chunk.slice(start));
      return -1;
    },
    /** The complete head, parsed; the reader starts over. */
    take(): RequestHead {
      const text = new TextDecoder().decode(concatBytes(parts));
      parts = [];
      bytes = 0;
      lineLength = 0;
      lineStarted = false;
      return parseRequestHead(text);
    },
  };
}
