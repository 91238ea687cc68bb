/**
 * Follows one request body by count, so the request scan never mistakes body bytes for a next
 * request: a `Content-Length` body is skipped by its length, a chunked one chunk by chunk (size
 * lines, data, the CRLF after each chunk, trailers). Anything it cannot follow exactly is an error.
 */

/** Chunk-size lines and trailers are small; a client sending more is not speaking HTTP. */
const MAX_CHUNK_LINE_BYTES = 1024;
const MAX_TRAILER_BYTES = 8 * 1024;
const CR = 0x0d;
const LF = 0x0a;

type State = "done" | "body" | "chunk-size" | "chunk-data" | "chunk-end" | "trailer";

export interface BodyScan {
  /** Whether the body ended (or there was none): what follows is the next request. */
  readonly done: boolean;
  /** Starts a body of `length` bytes (0: none). */
  startLength(length: number): void;
  /** Starts a chunked body. */
  startChunked(): void;
  /** One step through the body from `offset`; returns the new offset, or why it is refused. */
  step(chunk: Uint8Array, offset: number): number | string;
}

export function createBodyScan(): BodyScan {
  let state: State = "done";
  let remaining = 0; // body or chunk bytes still to pass
  let line = "";
  let lineBytes = 0;

  /** Reads a chunk-size or trailer line from `start`; returns the index after it, or -1. */
  function scanLine(chunk: Uint8Array, start: number, limit: number): number | string {
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (++lineBytes > limit) return "chunk-size line or trailers too long";
      if (byte === LF) return i + 1;
      if (byte !== CR && line.length < 64) line += String.fromCharCode(byte);
    }
    return -1;
  }

  /** Handles a complete chunk-size or trailer line; returns an error or undefined. */
  function endLine(): string | undefined {
    const text = line;
    line = "";
    if (state === "trailer") {
      if (text === "") { // the empty line after the trailers ends the request
        lineBytes = 0;
        state = "done";
      }
      return undefined;
    }
    lineBytes = 0;
    const digits = text.split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,13}$/.test(digits)) return "invalid chunk size";
    remaining = parseInt(digits, 16);
    state = remaining === 0 ? "trailer" : "chunk-data";
    return undefined;
  }

  /** The CRLF (or a bare LF) after a chunk's data. */
  function chunkEnd(byte: number): string | undefined {
    if (byte === LF) {
      state = "chunk-size";
      lineBytes = 0;
    } else if (byte !== CR || lineBytes++ > 0) return "no CRLF after a chunk";
    return undefined;
  }

  return {
    get done() {
      return state === "done";
    },
    startLength(length) {
      remaining = length;
      state = length > 0 ? "body" : "done";
    },
    startChunked() {
      state = "chunk-size";
      line = "";
      lineBytes = 0;
    },
    step(chunk, offset) {
      if (state === "body" || state === "chunk-data") {
        const step = Math.min(remaining, chunk.length - offset);
        remaining -= step;
        if (remaining === 0) state = state === "body" ? "done" : "chunk-end";
        return offset + step;
      }
      if (state === "chunk-end") return chunkEnd(chunk[offset]) ?? offset + 1;
      const limit = state === "trailer" ? MAX_TRAILER_BYTES : MAX_CHUNK_LINE_BYTES;
      const end = scanLine(chunk, offset, limit);
      if (typeof end === "string") return end;
      if (end === -1) return chunk.length;
      return endLine() ?? end;
    },
  };
}
