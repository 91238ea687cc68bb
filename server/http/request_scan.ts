/**
 * Follows the requests a client sends on one HTTP/1.1 connection, byte by byte through heads and by
 * count through bodies, so the connection guard knows at every moment whether a request head is
 * still arriving (the slowloris clock), where a WebSocket upgrade request ends, and, once upgraded,
 * what frames follow. Anything it cannot follow exactly (both `Content-Length` and
 * `Transfer-Encoding`, an odd length, HTTP/2 bytes, an oversized head) is refused, so no request can
 * hide from it inside what it took for a body.
 */
import { createWsFrameWatch, type WsFrameWatch } from "./ws_frame_watch.ts";

/** A request head (request line and headers) larger than this closes the connection. */
export const MAX_REQUEST_HEAD_BYTES = 64 * 1024;
/** Chunk-size lines and trailers are small; a client sending more is not speaking HTTP. */
const MAX_CHUNK_LINE_BYTES = 1024;
const MAX_TRAILER_BYTES = 8 * 1024;
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

type State = "head" | "body" | "chunk-size" | "chunk-data" | "chunk-end" | "trailer" | "upgrade";

/** A scan that refuses WebSocket messages over `maxWsMessageBytes`. */
export function createRequestScan(maxWsMessageBytes: number): RequestScan {
  let state: State = "head";
  let requests = 0;
  let headParts: Uint8Array[] = [];
  let headBytes = 0; // bytes of the head in progress, leading empty lines included
  let lineLength = 0; // non-CR bytes of the current line
  let lineStarted = false; // the request line has begun (empty lines before it are skipped)
  let remaining = 0; // body or chunk bytes still to pass
  let chunkLine = "";
  let chunkLineBytes = 0;
  let ws: WsFrameWatch | undefined;

  /** Where, in the chunk being pushed, the request now being read began (0: in an earlier one). */
  let requestStart = 0;
  /** Refuses from the start of the offending request: the requests before it are forwarded. */
  const refuse = (error: string): ScanStep => ({ forward: requestStart, error });

  /** Reads head bytes from `start`; returns the index after the head, or -1 if it continues. */
  function scanHead(chunk: Uint8Array, start: number): number {
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      headBytes++;
      if (!lineStarted) {
        if (byte === CR || byte === LF) continue;
        lineStarted = true;
      }
      if (byte === LF) {
        if (lineLength === 0) {
          headParts.push(chunk.subarray(start, i + 1));
          return i + 1;
        }
        lineLength = 0;
      } else if (byte !== CR) lineLength++;
    }
    headParts.push(chunk.slice(start));
    return -1;
  }

  /** Judges a complete head and sets the state for what follows it; returns an error or undefined. */
  function endHead(): string | undefined {
    const text = new TextDecoder().decode(concat(headParts));
    headParts = [];
    headBytes = 0;
    lineLength = 0;
    lineStarted = false;
    const lines = text.replace(/^[\r\n]+/, "").split(/\r?\n/);
    const version = lines[0].split(" ")[2] ?? "";
    if (!/^HTTP\/1\.[01]$/.test(version)) return "not an HTTP/1.x request";
    const lengths: string[] = [];
    let transferEncoding: string | undefined;
    let upgrade = false;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "content-length") lengths.push(value);
      else if (name === "transfer-encoding") transferEncoding = (transferEncoding ?? "") + value;
      else if (name === "upgrade") upgrade = true;
    }
    requests++;
    if (transferEncoding !== undefined) {
      if (lengths.length > 0) return "both Content-Length and Transfer-Encoding";
      if (transferEncoding.toLowerCase() !== "chunked") {
        return "Transfer-Encoding other than chunked";
      }
      state = "chunk-size";
      return upgrade ? "a WebSocket upgrade with a body" : undefined;
    }
    if (lengths.some((value) => value !== lengths[0] || !/^\d{1,15}$/.test(value))) {
      return "invalid Content-Length";
    }
    remaining = lengths.length ? Number(lengths[0]) : 0;
    if (upgrade) {
      if (requests > 1) return "a WebSocket upgrade must be the first request on its connection";
      if (remaining > 0) return "a WebSocket upgrade with a body";
      state = "upgrade";
      return undefined;
    }
    state = remaining > 0 ? "body" : "head";
    return undefined;
  }

  /** Reads a chunk-size or trailer line from `start`; returns the index after it, or -1. */
  function scanChunkLine(chunk: Uint8Array, start: number, limit: number): number | string {
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (++chunkLineBytes > limit) return "chunk-size line or trailers too long";
      if (byte === LF) return i + 1;
      if (byte !== CR && chunkLine.length < 64) chunkLine += String.fromCharCode(byte);
    }
    return -1;
  }

  /** Handles a complete chunk-size or trailer line; returns an error or undefined. */
  function endChunkLine(): string | undefined {
    const line = chunkLine;
    chunkLine = "";
    if (state === "trailer") {
      if (line === "") { // the empty line after the trailers ends the request
        chunkLineBytes = 0;
        state = "head";
      }
      return undefined;
    }
    chunkLineBytes = 0;
    const digits = line.split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,13}$/.test(digits)) return "invalid chunk size";
    remaining = parseInt(digits, 16);
    state = remaining === 0 ? "trailer" : "chunk-data";
    return undefined;
  }

  /** One step through a body from `offset`; returns the new offset or an error. */
  function bodyStep(chunk: Uint8Array, offset: number): number | string {
    if (state === "body" || state === "chunk-data") {
      const step = Math.min(remaining, chunk.length - offset);
      remaining -= step;
      if (remaining === 0) state = state === "body" ? "head" : "chunk-end";
      return offset + step;
    }
    if (state === "chunk-end") { // CRLF (or a bare LF) after the chunk's data
      const byte = chunk[offset];
      if (byte === LF) {
        state = "chunk-size";
        chunkLineBytes = 0;
      } else if (byte !== CR || chunkLineBytes++ > 0) return "no CRLF after a chunk";
      return offset + 1;
    }
    const limit = state === "trailer" ? MAX_TRAILER_BYTES : MAX_CHUNK_LINE_BYTES;
    const end = scanChunkLine(chunk, offset, limit);
    if (typeof end === "string") return end;
    if (end === -1) return chunk.length;
    return endChunkLine() ?? end;
  }

  return {
    get headPending() {
      return state === "head" && (requests === 0 || headBytes > 0);
    },
    get upgraded() {
      return ws !== undefined;
    },
    answerUpgrade(status) {
      if (state !== "upgrade") return;
      if (status === 101) ws = createWsFrameWatch(maxWsMessageBytes);
      else state = "head";
    },
    push(chunk) {
      if (ws) {
        const error = ws.push(chunk);
        return error ? { forward: 0, error } : { forward: chunk.length };
      }
      let offset = 0;
      requestStart = 0;
      while (offset < chunk.length) {
        if (state === "upgrade") return { forward: offset, awaitUpgrade: true };
        if (state === "head") {
          if (headBytes === 0) requestStart = offset;
          const end = scanHead(chunk, offset);
          if (headBytes > MAX_REQUEST_HEAD_BYTES) {
            return refuse(`request head over ${MAX_REQUEST_HEAD_BYTES} bytes`);
          }
          if (end === -1) return { forward: chunk.length };
          const error = endHead();
          if (error) return refuse(error);
          offset = end;
          continue;
        }
        const next = bodyStep(chunk, offset);
        if (typeof next === "string") return refuse(next);
        offset = next;
      }
      if (state === "upgrade") return { forward: offset, awaitUpgrade: true };
      return { forward: chunk.length };
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
