/**
 * One part of a snapshot's text: at most `maxBytes` UTF-8 bytes from byte `offset`, cut after a
 * line's end, so the parts of a long outline, concatenated, give it back whole. Pure.
 */
import { hubError } from "../../../../protocol/errors.ts";

export interface SnapshotPart {
  text: string;
  truncated: boolean;
  /** Where the next part starts, when `truncated`. */
  nextOffset?: number;
  /** UTF-8 bytes of the whole text. */
  totalBytes: number;
}

/**
 * A line longer than this many bytes (the least `maxBytes` there is) may be cut inside, so an
 * `offset` inside such a line is one a previous part answered as `nextOffset`.
 */
export const LONG_LINE_BYTES = 1_000;

const NL = 0x0a;

/**
 * The part of `text` from byte `offset`: up to the last line end within `maxBytes` bytes; a single
 * line longer than that is cut inside at a character's start (a code point is never split).
 * `offset` must be 0, a line's start, or a point inside a line too long for one part (what
 * `nextOffset` answers); anything else, or past the end, fails with INVALID_ARGUMENTS.
 */
export function cutSnapshot(text: string, maxBytes: number, offset = 0): SnapshotPart {
  const bytes = new TextEncoder().encode(text);
  const totalBytes = bytes.length;
  checkOffset(bytes, offset);
  const decode = (end: number) => new TextDecoder().decode(bytes.subarray(offset, end));
  if (totalBytes - offset <= maxBytes) {
    return { text: decode(totalBytes), truncated: false, totalBytes };
  }
  const limit = offset + Math.max(1, maxBytes);
  let end = bytes.lastIndexOf(NL, limit - 1) + 1;
  if (end <= offset) {
    end = limit;
    while (end > offset && isContinuation(bytes[end])) end--;
    // A maxBytes smaller than one character still moves on by that character.
    if (end === offset) { do end++; while (isContinuation(bytes[end])); }
  }
  return { text: decode(end), truncated: true, nextOffset: end, totalBytes };
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function checkOffset(bytes: Uint8Array, offset: number) {
  if (offset === 0) return;
  const problem = offset >= bytes.length
    ? `offset ${offset} is past the end of the outline (${bytes.length} bytes)`
    : isContinuation(bytes[offset]) || (bytes[offset - 1] !== NL && !inLongLine(bytes, offset))
    ? `offset ${offset} is not where a part of the outline starts`
    : undefined;
  if (problem) {
    throw hubError(
      "INVALID_ARGUMENTS",
      `${problem}: pass the nextOffset of the previous answer (or 0 for the start).`,
    );
  }
}

function inLongLine(bytes: Uint8Array, offset: number): boolean {
  const start = bytes.lastIndexOf(NL, offset - 1) + 1;
  const next = bytes.indexOf(NL, offset);
  const end = next < 0 ? bytes.length : next;
  return end - start > LONG_LINE_BYTES;
}
