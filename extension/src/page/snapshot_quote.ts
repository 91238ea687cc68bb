/**
 * How browser_snapshot quotes a string of the page (a name, a value, a url) in its outline: on one
 * line, escaped, cut to a length. The states (dom_states.ts) and the line writer
 * (dom_snapshot_lines.ts) both quote with it, so a page cannot end a quote or start a line; text
 * lines and browser_wait_for's excerpt make page text inert with `inertText` too.
 */
import { NAME_MAX_CHARS } from "../../../protocol/browser_methods/dom_limits.ts";

/** Control characters (C0, DEL, C1) and whitespace runs, each folded to one space. */
// deno-lint-ignore no-control-regex -- folding control characters is the point
const FOLD = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * Characters that change how text reads without being seen, dropped: bidi embeddings, overrides,
 * isolates and marks (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C) and zero-width ones
 * (U+200B, U+200C, U+2060, U+FEFF); a zero-width joiner (U+200D) too, but between two emoji.
 */
const INVISIBLE =
  /[\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]|(?<![\udc00-\udfff\ufe0f\u2600-\u27bf])\u200d|\u200d(?![\ud800-\udbff\u2600-\u27bf])/g;

/** A ref as the outline writes it, `[ref=`, in page text: written `[ref =` (see inertText). */
const REF_OPENER = /\[(ref)=/gi;

/**
 * Page text made inert for an outline or a message: invisible characters dropped (INVISIBLE),
 * whitespace and control characters folded to one space (not trimmed), and `[ref=` written
 * `[ref =`, so a `[ref=…]` only ever ends a line hub wrote and never one the page wrote (a page
 * cannot point the agent at another element's real ref).
 */
export function inertText(text: string): string {
  return text.replace(INVISIBLE, "").replace(FOLD, " ").replace(REF_OPENER, "[$1 =");
}

/**
 * `text` as one quoted outline value: made inert (inertText: invisible characters dropped, line
 * breaks, tabs and other control characters folded to a space, whitespace runs collapsed,
 * `[ref=` broken up), `\` and `"` escaped, and cut to `max` characters with a trailing `…`
 * (which counts in `max`). The page cannot end the quote or start a new line.
 */
export function quoted(text: string, max: number = NAME_MAX_CHARS): string {
  // A huge value (a long textarea) is read only as far as the cut can reach.
  const reach = 4 * max + 64;
  const long = text.length > reach;
  let folded = inertText(long ? text.slice(0, reach) : text);
  if (folded.length > max || long) {
    let end = Math.max(0, Math.min(max - 1, folded.length));
    const last = folded.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    folded = folded.slice(0, end) + "…";
  }
  return `"${folded.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}
