/**
 * Output caps for browser tools: a long text is cut with a marker that says how much was left
 * out and how to get it, so one call never floods an agent's context. Self-contained (no imports)
 * so page-side bundles can use it too.
 */

/** Default length of text a tool returns, in characters. */
export const DEFAULT_MAX_CHARS = 20_000;
/** The most any tool returns as text, whatever the caller asks. */
export const MAX_CHARS = 200_000;

export interface Capped {
  text: string;
  /** True when `text` was cut. */
  truncated: boolean;
  /** The length before cutting. */
  totalLength: number;
}

/** The marker appended to cut text. */
export function truncationMarker(shown: number, total: number, hint: string): string {
  return `\n…[truncated: showed ${shown} of ${total} characters. ${hint}]`;
}

/**
 * Cuts `text` to `max` characters (clamped to MAX_CHARS) and appends a marker; `hint` tells the
 * agent how to see the rest (e.g. "Pass a selector or a larger maxLength.").
 */
export function capText(text: string, max = DEFAULT_MAX_CHARS, hint = ""): Capped {
  const limit = Math.max(1, Math.min(Math.floor(max), MAX_CHARS));
  if (text.length <= limit) return { text, truncated: false, totalLength: text.length };
  return {
    text: text.slice(0, limit) + truncationMarker(limit, text.length, hint),
    truncated: true,
    totalLength: text.length,
  };
}
