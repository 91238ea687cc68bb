/**
 * The first line of a browser_snapshot outline, `# <title> — <url>`, written by the extension (the
 * outline and its `since` changes) and by the server (before a later part): both strings come from
 * the page, so each is made inert the way names are (inert_text.ts: no line break of any kind, no
 * control character, so no page can forge a line after it; no bidi or zero-width character, so
 * the line reads as it is; a page's `[ref=` written `[ref =`), trimmed and cut to a bounded length.
 */
import { HEADER_URL_CHARS, NAME_MAX_CHARS } from "./dom_limits.ts";
import { inertText } from "./inert_text.ts";

/** `text` as one inert line (inertText), trimmed. */
export function foldLine(text: string): string {
  return inertText(text).trim();
}

/** `text` cut to `max` characters, the trailing `…` included, never inside a surrogate pair. */
export function cutLine(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

/** `# <title> — <url>`: each made inert (foldLine), the title cut at NAME_MAX_CHARS, the URL at HEADER_URL_CHARS. */
export function outlineHeader(title: unknown, url: unknown): string {
  const one = (text: unknown, max: number) => cutLine(foldLine(String(text ?? "")), max);
  return `# ${one(title, NAME_MAX_CHARS)} — ${one(url, HEADER_URL_CHARS)}`;
}
