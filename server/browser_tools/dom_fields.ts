/** Input fields the page-reading and element tools share. */
import { z } from "zod";

/** Matches the page-side limits (protocol/text_cap.ts). */
export const TEXT_DEFAULT_CHARS = 20_000;
export const TEXT_MAX_CHARS = 200_000;

/** A required CSS selector; the tool acts on its first match in the top document. */
export function selectorField(what = "the element") {
  return z.string().min(1).describe(
    `CSS selector of ${what}, e.g. "#email" or "form button[type=submit]"; the first match is ` +
      "used (top document only, not inside iframes or shadow roots).",
  );
}

export const maxLengthField = z.number().int().min(1).max(TEXT_MAX_CHARS).default(
  TEXT_DEFAULT_CHARS,
).describe(
  `Most characters to return (default ${TEXT_DEFAULT_CHARS}, at most ${TEXT_MAX_CHARS}); ` +
    "longer output is cut and ends with a truncation marker.",
);

/** How many of `names` are set (not undefined) in `input`. */
export function countSet(input: Record<string, unknown>, names: string[]): number {
  return names.filter((name) => input[name] !== undefined).length;
}
