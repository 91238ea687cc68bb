/**
 * Splits what an MCP client writes on the bridge's stdin into lines (one JSON-RPC message each),
 * with a bound: a line longer than the limit is not kept. Its bytes are dropped as they arrive
 * (only its first KiB stays, to find the request id it would be answered under), and reading goes
 * on with the next line. So however long a line is, the bridge holds at most the limit.
 */
import { MAX_MESSAGE_BYTES } from "../../protocol/limits.ts";
import { concatBytes } from "../../protocol/bytes.ts";
import { scanJson } from "../../core/files/json_depth.ts";

/** The hub accepts no larger MCP message, so the bridge keeps no longer line. */
export const MAX_LINE_BYTES = MAX_MESSAGE_BYTES;
/** How much of a dropped line is kept to find its id. */
const PREFIX_BYTES = 1024;
const NEWLINE = 0x0a;

export type JsonRpcId = string | number;

export type LineEvent =
  | { line: string; bytes: number }
  /** A line over the limit was dropped: how long it was, and its request id when one was found. */
  | { tooLong: number; id?: JsonRpcId };

/** The lines of `stream`; a last line without a newline counts too. */
export async function* boundedLines(
  stream: ReadableStream<Uint8Array>,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<LineEvent> {
  let parts: Uint8Array[] = [];
  let size = 0;
  /** Bytes of the line being dropped (0: the line is being kept). */
  let dropped = 0;
  let prefix = new Uint8Array(0);
  const take = (): LineEvent => {
    const bytes = concatBytes(parts);
    parts = [];
    size = 0;
    if (dropped > 0) {
      const event = { tooLong: dropped, id: topLevelId(new TextDecoder().decode(prefix)) };
      dropped = 0;
      return event;
    }
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : undefined;
    return { line: new TextDecoder().decode(bytes.subarray(0, end)), bytes: bytes.length };
  };
  const add = (piece: Uint8Array) => {
    if (dropped > 0) return void (dropped += piece.length);
    if (size + piece.length <= maxBytes) {
      parts.push(piece.slice());
      size += piece.length;
      return;
    }
    prefix = concatBytes([...parts, piece]).slice(0, PREFIX_BYTES);
    dropped = size + piece.length;
    parts = [];
    size = 0;
  };
  for await (const chunk of stream) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      add(chunk.subarray(start, end));
      start = end + 1;
      yield take();
    }
    if (start < chunk.length) add(chunk.subarray(start));
  }
  if (size > 0 || dropped > 0) yield take();
}

/** Longer ids are not echoed back. */
const MAX_ID_CHARS = 256;
const ID_VALUE = /^\s*:\s*("(?:[^"\\]|\\.)*"|-?\d{1,20})\s*[,}]/;

/**
 * The `id` member of the JSON object that `text` begins, when it appears in `text` (a prefix) as a
 * string or an integer; undefined otherwise. Only the outer object's members count.
 */
export function topLevelId(text: string): JsonRpcId | undefined {
  let id: JsonRpcId | undefined;
  scanJson(text, (token) => {
    if (token.kind !== "string" || token.depth !== 1) return false;
    if (token.end === -1 || text.slice(token.start, token.end) !== '"id"') return false;
    id = idValue(text.slice(token.end, token.end + MAX_ID_CHARS + 8));
    return true;
  });
  return id;
}

/** The id value that `rest` (what follows an `"id"` member name) begins with, if it is one. */
function idValue(rest: string): JsonRpcId | undefined {
  const value = ID_VALUE.exec(rest)?.[1];
  if (value === undefined || value.length > MAX_ID_CHARS) return undefined;
  try {
    return JSON.parse(value) as JsonRpcId;
  } catch {
    return undefined;
  }
}
