/**
 * A TOML file seen line by line, enough to find where each table starts and ends without
 * rewriting the file: each line is a table header (with its key path), a blank line, a comment, or
 * content (a key/value, or the inside of a multi-line string or array). Strings, comments and
 * brackets are followed across lines, so a `[` inside a string or a multi-line array is not taken
 * for a header. The editor re-parses what it wrote with a real TOML parser, so a mistake here is
 * refused, never written.
 */

export interface TomlLine {
  start: number;
  /** Just past the line's end, its line break included. */
  end: number;
  kind: "header" | "blank" | "comment" | "content";
  /** A header's key path (`[a."b c".d]` → ["a", "b c", "d"]). */
  path?: string[];
  /** A header of an array of tables (`[[a.b]]`). */
  array?: boolean;
}

interface ScanState {
  /** Inside a multi-line string closed by this delimiter. */
  open?: '"""' | "'''";
  /** Open brackets and braces of a value spread over lines. */
  depth: number;
}

/** The lines of `text`, classified. */
export function tomlLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  const state: ScanState = { depth: 0 };
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline + 1;
    const line = text.slice(start, end).replace(/\r?\n$/, "");
    lines.push({ start, end, ...classify(line, state) });
    start = end;
  }
  return lines;
}

function classify(line: string, state: ScanState): Omit<TomlLine, "start" | "end"> {
  if (state.open || state.depth > 0) {
    scanValue(line, 0, state);
    return { kind: "content" };
  }
  const trimmed = line.trim();
  if (trimmed === "") return { kind: "blank" };
  if (trimmed.startsWith("#")) return { kind: "comment" };
  if (trimmed.startsWith("[")) {
    const header = parseHeader(trimmed);
    if (header) return { kind: "header", ...header };
  }
  scanValue(line, 0, state);
  return { kind: "content" };
}

/** Follows strings, comments and brackets from `i` to the end of the line. */
function scanValue(line: string, i: number, state: ScanState): void {
  if (state.open) {
    const close = closing(line, i, state.open);
    if (close === -1) return;
    i = close;
    state.open = undefined;
  }
  while (i < line.length) {
    const c = line[i];
    if (c === "#") return;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3) as '"""' | "'''";
      if (line.startsWith(triple, i)) {
        const close = closing(line, i + 3, triple);
        if (close === -1) {
          state.open = triple;
          return;
        }
        i = close;
        continue;
      }
      i = stringEnd(line, i);
      continue;
    }
    if (c === "[" || c === "{") state.depth++;
    if (c === "]" || c === "}") state.depth = Math.max(0, state.depth - 1);
    i++;
  }
}

/** Just past the closing `delimiter` at or after `i` (escapes count in `"""`), or -1. */
function closing(line: string, i: number, delimiter: '"""' | "'''"): number {
  for (let j = i; j < line.length; j++) {
    if (delimiter === '"""' && line[j] === "\\") {
      j++;
      continue;
    }
    if (line.startsWith(delimiter, j)) {
      let k = j + 3;
      while (line[k] === delimiter[0] && k < j + 5) k++; // up to two quotes may end the content
      return k;
    }
  }
  return -1;
}

/** Just past the one-line string starting at `i` (basic strings have escapes). */
function stringEnd(line: string, i: number): number {
  const quote = line[i];
  for (let j = i + 1; j < line.length; j++) {
    if (quote === '"' && line[j] === "\\") j++;
    else if (line[j] === quote) return j + 1;
  }
  return line.length;
}

/** `[a.b]` / `[[a.b]]` (then only a comment): its key path; undefined when not a header. */
export function parseHeader(trimmed: string): { path: string[]; array: boolean } | undefined {
  const array = trimmed.startsWith("[[");
  const keys = parseDottedKey(trimmed, array ? 2 : 1);
  if (!keys) return undefined;
  const close = array ? "]]" : "]";
  if (!trimmed.startsWith(close, keys.end)) return undefined;
  const rest = trimmed.slice(keys.end + close.length).trim();
  return rest === "" || rest.startsWith("#") ? { path: keys.path, array } : undefined;
}

/** A dotted key from `i`: bare, "basic" or 'literal' parts with spaces around the dots. */
function parseDottedKey(text: string, i: number): { path: string[]; end: number } | undefined {
  const path: string[] = [];
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    const part = parseKeyPart(text, i);
    if (!part) return undefined;
    path.push(part.key);
    i = part.end;
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] !== ".") return { path, end: i };
    i++;
  }
}

function parseKeyPart(text: string, i: number): { key: string; end: number } | undefined {
  if (text[i] === "'") {
    const end = text.indexOf("'", i + 1);
    return end === -1 ? undefined : { key: text.slice(i + 1, end), end: end + 1 };
  }
  if (text[i] === '"') {
    const end = stringEnd(text, i);
    try {
      return { key: JSON.parse(text.slice(i, end)), end };
    } catch {
      return undefined;
    }
  }
  const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(i))?.[0];
  return bare ? { key: bare, end: i + bare.length } : undefined;
}
