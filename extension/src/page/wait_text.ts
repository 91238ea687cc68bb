/**
 * What browser_wait_for's `text` / `textGone` means, and the one search of a document's visible
 * text for it. Pure: the worker checks the pattern before it polls (a bad `/regex/` fails at once,
 * as INVALID_ARGUMENTS), and the page kit searches each document's visible text with it.
 *
 * - `"/source/flags"` is a regular expression (flags i, m, s, u, v; g, y and d are accepted and
 *   ignored: a search needs none of them). It runs on each line of the visible text on its own
 *   (a match is within one line), each line cut at WAIT_REGEX_LINE_CHARS characters, at most
 *   WAIT_REGEX_MAX_CHARS characters in all: a regex may backtrack, and the cost of a polynomial
 *   one (`.*x.*y`) grows with the length of the text it runs on at once. A regex whose
 *   backtracking could hold the page's tab for ever on text the page picks (a repeat inside a
 *   repeat such as `(a+)+`, a repeated choice, many unbounded repeats) is refused (regex_risk.ts).
 * - Anything else is a substring, matched case-sensitively with runs of whitespace (spaces, line
 *   breaks, tabs) counting as one space on both sides, in the first WAIT_SEARCH_MAX_CHARS
 *   characters of the visible text.
 */
import { quoteClip } from "../../../protocol/clip.ts";
import { MAX_UNBOUNDED, regexRisk } from "./regex_risk.ts";
import { inertText } from "./snapshot_quote.ts";

/** Most characters of a document's visible text searched for a substring. */
export const WAIT_SEARCH_MAX_CHARS = 1_000_000;
/** Most characters of a document's visible text a `/regex/` runs on, all lines together. */
export const WAIT_REGEX_MAX_CHARS = 20_000;
/** Most characters of one line a `/regex/` runs on (the rest of a longer line is not searched). */
export const WAIT_REGEX_LINE_CHARS = 1_000;
/** Most characters of what a check saw, for the timeout message. */
export const SEEN_MAX_CHARS = 200;

/** How far before a match its excerpt starts. */
const LEAD_CHARS = 60;
/** The shortest start of a substring looked for when the whole is not there. */
const NEAR_MIN_CHARS = 3;

const REGEX_FORM = /^\/([\s\S]+)\/([a-z]*)$/;
const FLAGS_USED = "imsuv";
const FLAGS_IGNORED = "dgy";

/** What a refused regex's piece is, by RegexRisk kind. */
const RISKS = {
  nested: "is a repeat inside a repeat",
  choice: "is a repeated group with a choice (|) inside",
  unbounded: `has more than ${MAX_UNBOUNDED} unbounded repeats (*, + or {n,})`,
};
/** How to write a refused regex instead, by RegexRisk kind. */
const FIXES = {
  nested: 'Write it without the nested repeat (e.g. "/a+$/" for "/(a+)+$/", "/\\d[\\d,]*/" for ' +
    '"/(\\d+,?)+/")',
  choice:
    'Write the choice without repeating it (e.g. "/[ab]+$/" for "/(a|b)+$/", "/(beep|boop)/" ' +
    'for "/(beep|boop)*/")',
  unbounded: `Keep at most ${MAX_UNBOUNDED} of them (e.g. "/Order.*shipped/" for ` +
    '"/Order.*shipped.*today.*/"), or wait for a shorter piece of the text',
};

/** A `text` / `textGone` value taken apart. */
export type TextPattern =
  | { kind: "substring"; needle: string }
  | { kind: "regex"; regex: RegExp };

/** Why a `text` / `textGone` value cannot be searched for; its message is for the agent. */
export class WaitTextError extends Error {
  override name = "WaitTextError";
}

/** Runs of any whitespace (`\s`, no-break spaces too) as one space, trimmed. */
export function foldWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` as a pattern, or WaitTextError: an unknown flag, a regex that does not compile. */
export function parseWaitText(text: string): TextPattern {
  const form = REGEX_FORM.exec(text);
  if (!form) {
    const needle = foldWhitespace(text);
    if (!needle) {
      throw new WaitTextError(
        "The text to wait for is only whitespace. Pass the words to wait for, or selector/state " +
          "to wait for an element.",
      );
    }
    return { kind: "substring", needle };
  }
  const [, source, flags] = form;
  const unknown = [...flags].filter((f) => !FLAGS_USED.includes(f) && !FLAGS_IGNORED.includes(f));
  if (unknown.length > 0) {
    throw new WaitTextError(
      `${quoteClip(text)} is not a valid /regex/flags: unknown flag "${unknown[0]}" (use i, m, ` +
        "s, u or v). To wait for text that starts and ends with a slash, write it as a regex " +
        "with the slashes escaped, e.g. /\\/api\\/users/.",
    );
  }
  const used = [...flags].filter((f) => FLAGS_USED.includes(f)).join("");
  let regex: RegExp;
  try {
    regex = new RegExp(source, used);
  } catch (error) {
    throw new WaitTextError(
      `${quoteClip(text)} is not a valid regular expression: ${(error as Error).message}. ` +
        'Write a regex as "/source/flags", e.g. "/order #\\d+ placed/i", or pass plain text.',
    );
  }
  const risk = regexRisk(source, used);
  if (risk) {
    throw new WaitTextError(
      `${quoteClip(text)} is refused: ${quoteClip(risk.piece, 60)} ${RISKS[risk.kind]}, which ` +
        "can backtrack for ever on text the page picks and freeze its tab. " + FIXES[risk.kind] +
        ", or pass the words to wait for as plain text.",
    );
  }
  return { kind: "regex", regex };
}

/** What one document's search found: whether the pattern is there, and an excerpt. */
export interface TextSearch {
  found: boolean;
  /**
   * At most SEEN_MAX_CHARS characters, whitespace collapsed: around the match when found; else
   * around the nearest text (the pattern's start, any case) when there is one (`near`), else the
   * start of the text.
   */
  seen: string;
  near?: true;
}

/** Searches `text` (one document's visible text) for `pattern`. */
export function searchText(text: string, pattern: TextPattern): TextSearch {
  if (pattern.kind === "regex") {
    for (const line of regexLines(text)) {
      const match = pattern.regex.exec(line);
      if (match) return { found: true, seen: excerpt(line, match.index, match[0].length) };
    }
    return { found: false, seen: excerpt(text.slice(0, WAIT_REGEX_MAX_CHARS), 0, 0) };
  }
  const hay = foldWhitespace(text.slice(0, WAIT_SEARCH_MAX_CHARS));
  const at = hay.indexOf(pattern.needle);
  if (at >= 0) return { found: true, seen: excerpt(hay, at, pattern.needle.length) };
  const near = nearest(hay, pattern.needle);
  if (near >= 0) return { found: false, seen: excerpt(hay, near, 0), near: true };
  return { found: false, seen: excerpt(hay, 0, 0) };
}

/**
 * The lines of `text` a regex runs on, one at a time: split at line breaks (`\n`, `\r`, `\r\n`,
 * U+2028, U+2029), each cut at WAIT_REGEX_LINE_CHARS characters, until WAIT_REGEX_MAX_CHARS
 * characters (each line break counted as one) were handed out. A regex backtracking on one line
 * costs at most what it costs on WAIT_REGEX_LINE_CHARS characters, whatever the page's text.
 */
export function* regexLines(text: string): Generator<string> {
  const lineBreak = /\r\n|[\n\r\u2028\u2029]/g;
  let budget = WAIT_REGEX_MAX_CHARS;
  for (let start = 0; budget > 0;) {
    lineBreak.lastIndex = start;
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    const line = text.slice(start, Math.min(end, start + WAIT_REGEX_LINE_CHARS, start + budget));
    budget -= line.length + 1;
    yield line;
    if (!found) return;
    start = end + found[0].length;
  }
}

/**
 * Where the longest start of `needle` (any case, halving from the whole down to NEAR_MIN_CHARS
 * characters) is in `hay`, or -1. At most a few searches, so a miss costs little.
 */
function nearest(hay: string, needle: string): number {
  const lower = hay.toLowerCase();
  const wanted = needle.toLowerCase();
  for (let length = wanted.length; length >= NEAR_MIN_CHARS; length = Math.floor(length / 2)) {
    const at = lower.indexOf(wanted.slice(0, length));
    if (at >= 0) return at;
  }
  return -1;
}

/**
 * At most SEEN_MAX_CHARS characters of `hay` around `at` (a match of `length`), made inert as the
 * snapshot's text (inertText: no bidi or zero-width characters, `[ref=` broken up).
 */
export function excerpt(hay: string, at: number, length: number): string {
  const room = SEEN_MAX_CHARS - 2; // an ellipsis each side
  const lead = length >= room ? 0 : Math.min(LEAD_CHARS, room - length);
  const start = Math.max(0, at - lead);
  const window = inertText(hay.slice(start, start + room * 2)).trim();
  const piece = window.slice(0, room);
  const before = start > 0 ? "…" : "";
  const after = window.length > room || start + room * 2 < hay.length ? "…" : "";
  return before + piece + after;
}
