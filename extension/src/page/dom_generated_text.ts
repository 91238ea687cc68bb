/**
 * The text CSS generates in `::before` and `::after` (`content`: strings, `attr()`, alternative
 * text after `/`), read by the accessible-name computation (dom_names.ts) for a name that is empty
 * without it. Costs one style computation per element and pseudo-element.
 */

/** A quoted string, an `attr()`, or the `/` before alternative text, in a `content` value. */
const CONTENT_PART = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)|(\/)/g;

/** The text a `::before` or `::after` adds (its alternative text after `/` when given). */
export function generatedText(el: Element, pseudo: "::before" | "::after"): string {
  const content = getComputedStyle(el, pseudo).content;
  if (!content || content === "none" || content === "normal") return "";
  let text = "";
  for (const part of content.matchAll(CONTENT_PART)) {
    if (part[4]) text = ""; // what follows the slash replaces what came before
    else if (part[3]) text += el.getAttribute(part[3]) ?? "";
    else text += unescapeCss(part[1] ?? part[2] ?? "");
  }
  return text;
}

/** CSS string escapes: `\"`, `\\`, `\A` (a line break), `\e900` (a code point). */
function unescapeCss(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|(.))/g, (_, hex, char) => {
    if (!hex) return char;
    const code = parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  });
}
