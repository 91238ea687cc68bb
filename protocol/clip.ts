/**
 * Cutting text that came from outside (input, error messages, log lines) to a bounded length. One
 * place for it: the server, the CLI, the extension and the SDK all clip what they echo or store.
 */

/** `text` cut to at most `max` characters, ending in "…" when it was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Longest part of a value repeated in a message by default. */
const MAX_ECHO = 80;

/** `value` cut to `max` characters with a note of its full length, for echoing input in messages. */
export function clipForMessage(value: string, max = MAX_ECHO): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/** Longest selector (or other input) quoted in an error message, so the hint after it survives. */
export const MAX_QUOTE = 200;

/**
 * `value` in double quotes, cut as `clipForMessage` cuts (at MAX_QUOTE by default), for a message
 * that quotes an input such as a selector: the recovery hint after it always fits.
 */
export function quoteClip(value: string, max = MAX_QUOTE): string {
  return `"${clipForMessage(value, max)}"`;
}

/** An error's message (or the value as text), cut to `max` characters for a log line. */
export function errorText(error: unknown, max = 200): string {
  return clip(String((error as Error)?.message ?? error), max);
}

/** How `boundedList` bounds a list of problems. */
export interface ListBounds {
  /** Lines kept at most. */
  maxItems: number;
  /** Characters of one line; a longer line is cut with "…". */
  maxItemChars: number;
  /** Characters of the kept lines together (the first line is always kept); default: no limit. */
  maxTotalChars?: number;
  /** How many lines there are in all, when `lines` holds only the first ones; default: all given. */
  total?: number;
  /** The last line when some were left out; default `…and N more`. */
  more?: (left: number) => string;
}

/**
 * The first `lines` within `bounds`, each cut to its length, then one line saying how many were
 * left out. A hostile input with a million problems costs a short answer.
 */
export function boundedList(lines: readonly string[], bounds: ListBounds): string[] {
  const { maxItems, maxItemChars, maxTotalChars = Infinity, total = lines.length } = bounds;
  const out: string[] = [];
  let chars = 0;
  for (const text of lines) {
    if (out.length === maxItems) break;
    const line = clip(text, maxItemChars);
    if (out.length > 0 && chars + line.length > maxTotalChars) break;
    out.push(line);
    chars += line.length;
  }
  const left = total - out.length;
  if (left > 0) out.push(bounds.more ? bounds.more(left) : `…and ${left} more`);
  return out;
}
