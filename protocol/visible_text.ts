/**
 * Text from outside (a plugin's names, titles, descriptions and errors, an agent's parameters, a
 * registry's package data) made safe to show to a person: every character that does not show as
 * itself is replaced by a visible escape such as `⟨U+202E⟩`. That covers bidi controls (which
 * reorder what follows, so "fdp.exe" shows as "exe.pdf"), zero-width and other format or
 * default-ignorable characters (which hide text or split a word unseen), control characters
 * (terminal escapes, carriage returns that overwrite a line) and line or paragraph separators.
 * Escaping, not stripping: the person sees that something was hidden. Self-contained (no imports)
 * so the extension, the CLI and the server all use this one definition.
 */

/**
 * What is escaped: C0/C1 controls, format characters (Cf: bidi marks, embeddings, overrides and
 * isolates, zero-width space/joiners, word joiner, BOM, soft hyphen, tag characters…), line and
 * paragraph separators, lone surrogates, every default-ignorable code point (variation selectors,
 * Hangul fillers, U+180E…), and the blank braille pattern U+2800.
 */
const HIDDEN = /\r\n|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/gu;

export interface VisibleOptions {
  /**
   * Keep line breaks (`\n`, `\r\n`) and tabs, for text shown on several lines (a parameter value
   * in a `<pre>`); by default they are escaped too, for one-line text (names, keys, CLI columns).
   */
  lines?: boolean;
}

/** The visible escape of one code point: `⟨U+202E⟩`. */
export function escapeCodePoint(codePoint: number): string {
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

function escapeMatch(match: string, lines: boolean): string {
  if (match === "\r\n") return lines ? match : `${escapeCodePoint(13)}${escapeCodePoint(10)}`;
  if (lines && (match === "\n" || match === "\t")) return match;
  return escapeCodePoint(match.codePointAt(0)!);
}

/** `text` with every hidden character escaped (see HIDDEN); idempotent. */
export function visibleText(text: string, options: VisibleOptions = {}): string {
  const lines = options.lines === true;
  return text.replace(HIDDEN, (match) => escapeMatch(match, lines));
}

/** The same characters as HIDDEN, one at a time, for JSON text. */
const HIDDEN_CHAR = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/**
 * JSON text (as `JSON.stringify` writes it) with every hidden character inside its strings written
 * as a `\uXXXX` escape: the same JSON value, but a terminal shows nothing reordered or hidden.
 * Line breaks and spaces between tokens stay (JSON.stringify never puts raw ones in strings).
 */
export function visibleJson(json: string): string {
  return json.replace(HIDDEN_CHAR, (match) => {
    if (match === "\n") return match;
    let out = "";
    for (let i = 0; i < match.length; i++) {
      out += `\\u${match.charCodeAt(i).toString(16).padStart(4, "0")}`;
    }
    return out;
  });
}

/** A run of text as shown: plain text, or the escape of one hidden character. */
export interface VisibleSegment {
  text: string;
  /** True for an escape made here (a styled mark in the panel), never for literal text. */
  escaped: boolean;
}

/**
 * `visibleText` as segments, so a view can style the escapes it made apart from text that merely
 * looks like one (a plugin may write "⟨U+202E⟩" itself). Joined, the texts equal `visibleText`.
 */
export function visibleSegments(text: string, options: VisibleOptions = {}): VisibleSegment[] {
  const lines = options.lines === true;
  const out: VisibleSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const escaped = escapeMatch(match[0], lines);
    if (escaped === match[0]) continue; // a kept line break or tab stays in the plain run
    if (match.index > at) out.push({ text: text.slice(at, match.index), escaped: false });
    out.push({ text: escaped, escaped: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), escaped: false });
  return out;
}

/** Whether `visibleText(text, options)` changes anything: the text hides something. */
export function hasHiddenCharacters(text: string, options: VisibleOptions = {}): boolean {
  return visibleText(text, options) !== text;
}
