/**
 * How browser_snapshot quotes a string of the page (a name, a value, a url) in its outline: on one
 * line, escaped, cut to a length. The states (dom_states.ts) and the line writer
 * (dom_snapshot_lines.ts) both quote with it, so a page cannot end a quote or start a line; text
 * lines and browser_wait_for's excerpt make page text inert with `inertText` too (it lives in
 * protocol/browser_methods/inert_text.ts, which the outline's header uses as well).
 */
import { NAME_MAX_CHARS } from "../../../protocol/browser_methods/dom_limits.ts";
import { inertText } from "../../../protocol/browser_methods/inert_text.ts";

export { inertText };

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
