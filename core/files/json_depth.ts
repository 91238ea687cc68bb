/**
 * A bound on how deeply a JSON (or JSONC: comments, trailing commas) text nests, checked before
 * the text is parsed. V8's JSON.parse copes with any depth, but a recursive walk of the result does
 * not (structuredClone, schema checks, jsonc-parser itself): a million nested `[` ends such a walk
 * with a RangeError. Real files the hub reads nest a few levels; tool schemas a few dozen at most.
 */

/** The deepest nesting accepted in a JSON or JSONC file the hub, the CLI or doctor reads. */
export const MAX_JSON_DEPTH = 128;

const OPEN = new Set(["[", "{"]);
const CLOSE = new Set(["]", "}"]);

/** What `scanJson` meets: a string, or a bracket (`depth` counts the arrays and objects open). */
export type JsonToken =
  /** `start` at the opening quote, `end` past the closing one (-1: it does not close in the text). */
  | { kind: "string"; start: number; end: number; depth: number }
  /** `depth` after the bracket: 1 for the outermost `{` or `[`, 0 after it closes. */
  | { kind: "open" | "close"; start: number; depth: number };

/** Index past the string that starts at `i` (a `"`), or -1 when it does not close in `text`. */
export function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

/** Index past a `//` or `/* *\/` comment starting at `i`, or `i` when none starts there. */
function skipComment(text: string, i: number): number {
  const next = text[i + 1];
  if (next === "/") {
    const end = text.indexOf("\n", i + 2);
    return end === -1 ? text.length : end + 1;
  }
  if (next === "*") {
    const end = text.indexOf("*/", i + 2);
    return end === -1 ? text.length : end + 2;
  }
  return i;
}

/**
 * Walks the strings and brackets of a JSON or JSONC text (or a prefix of one), in order, skipping
 * comments; brackets inside strings and comments are not brackets. Stops when `visit` returns true
 * or after a string that does not close. Linear in the text's length, without recursion; it does
 * not check that the text is valid JSON (a stray closing bracket never takes the depth below 0).
 */
export function scanJson(text: string, visit: (token: JsonToken) => boolean | void): void {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (visit({ kind: "string", start: i, end, depth }) || end === -1) return;
      i = end;
      continue;
    }
    if (c === "/") {
      const past = skipComment(text, i);
      if (past !== i) {
        i = past;
        continue;
      }
    } else if (OPEN.has(c)) {
      if (visit({ kind: "open", start: i, depth: ++depth })) return;
    } else if (CLOSE.has(c)) {
      depth = Math.max(0, depth - 1);
      if (visit({ kind: "close", start: i, depth })) return;
    }
    i++;
  }
}

/**
 * Undefined when `text` nests at most `maxDepth` arrays and objects deep; otherwise a short reason
 * ("nests deeper than 128 levels (at line 3)"). Brackets inside strings and comments do not count.
 * Linear in the text's length, without recursion; it does not check that the text is valid JSON.
 */
export function jsonDepthProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let problem: string | undefined;
  scanJson(text, (token) => {
    if (token.kind !== "open" || token.depth <= maxDepth) return false;
    const line = text.slice(0, token.start).split("\n").length;
    problem = `nests deeper than ${maxDepth} levels (at line ${line})`;
    return true;
  });
  return problem;
}

/**
 * JSON.parse with the depth bound first; throws a SyntaxError saying how deep (so callers that
 * describe a parse failure describe this one the same way).
 */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const problem = jsonDepthProblem(text, maxDepth);
  if (problem) throw new SyntaxError(`the JSON ${problem}`);
  return JSON.parse(text);
}
