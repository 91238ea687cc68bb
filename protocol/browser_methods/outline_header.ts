/**
 * The first line of a browser_snapshot outline, `# <title> — <url>`, written by the extension (the
 * outline and its `since` changes) and by the server (before a later part): both strings come from
 * the page, so each is folded to one line the way names are (no line break of any kind, no control
 * character, so no page can forge a line after it) and cut to a bounded length.
 */
import { HEADER_URL_CHARS, NAME_MAX_CHARS } from "./dom_limits.ts";

/** Whitespace (line and paragraph separators and NEL included) and C0/DEL/C1 controls. */
// deno-lint-ignore no-control-regex -- folding control characters is the point
const FOLD = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/** `text` as one line: each run of whitespace or control characters one space, trimmed. */
export function foldLine(text: string): string {
  return text.replace(FOLD, " ").trim();
}

/** `text` cut to `max` characters, the trailing `…` included, never inside a surrogate pair. */
export function cutLine(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

/** `# <title> — <url>`: the title folded and cut at NAME_MAX_CHARS, the URL at HEADER_URL_CHARS. */
export function outlineHeader(title: unknown, url: unknown): string {
  const one = (text: unknown, max: number) => cutLine(foldLine(String(text ?? "")), max);
  return `# ${one(title, NAME_MAX_CHARS)} — ${one(url, HEADER_URL_CHARS)}`;
}
