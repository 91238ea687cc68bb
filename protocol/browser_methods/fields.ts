/** Input fields several browser methods share, with the descriptions agents read. */
import * as z from "zod";
import { DEFAULT_MAX_CHARS, MAX_CHARS } from "../text_cap.ts";

/** The optional `tabId` most methods take; omitted means the focused window's active tab. */
export const tabIdField = z.number().int().min(1).optional().describe(
  "Browser tab id (from browser_list_tabs). Omit to use the active tab of the focused window.",
);

/** A required CSS selector; the method acts on its first match in the top document. */
export function selectorField(what = "the element") {
  return z.string().min(1).describe(
    `CSS selector of ${what}, e.g. "#email" or "form button[type=submit]"; the first match is ` +
      "used (top document only, not inside iframes or shadow roots).",
  );
}

/** How much text a page-reading method returns (the page cuts with the same limits). */
export const maxLengthField = z.number().int().min(1).max(MAX_CHARS).default(DEFAULT_MAX_CHARS)
  .describe(
    `Most characters to return (default ${DEFAULT_MAX_CHARS}, at most ${MAX_CHARS}); ` +
      "longer output is cut and ends with a truncation marker.",
  );

/** Whether a navigating method waits for the page; `what` is what it waits for. */
export function waitForLoadField(what = "the load event") {
  return z.boolean().default(true).describe(`Wait for ${what} (default true).`);
}

/** How many of `names` are set (not undefined) in `input`. */
export function countSet(input: Record<string, unknown>, names: string[]): number {
  return names.filter((name) => input[name] !== undefined).length;
}
