/** Input fields several browser methods share, with the descriptions agents read. */
import * as z from "zod";
import { DEFAULT_MAX_CHARS, MAX_CHARS } from "../text_cap.ts";
import { SELECTOR_MAX_CHARS } from "./dom_limits.ts";

/** The optional `tabId` most methods take; omitted means the focused window's active tab. */
export const tabIdField = z.number().int().min(1).optional().describe(
  "Browser tab id (from browser_list_tabs). Omit to use the active tab of the focused window.",
);

/** How a selector reaches inside web components, for the selector fields' descriptions. */
export const PIERCE_HINT = 'Write "host >>> inner" to match inner only inside the open shadow ' +
  'roots of the elements host matches, e.g. "x-card >>> button".';

/**
 * A required CSS selector; the method acts on its first match in the top document, or, when the
 * document has none, on the first match in its open shadow roots (composed-tree order).
 */
export function selectorField(what = "the element") {
  return selectorString().describe(
    `CSS selector of ${what}, e.g. "#email" or "form button[type=submit]"; the first match is ` +
      "used (top document and its open shadow roots; inside an iframe only with `frame`). " +
      PIERCE_HINT,
  );
}

/**
 * The frame a selector tool works in: a CSS selector (may use `>>>`) of an `<iframe>` or `<frame>`
 * of the top document. Omitted: the top document, as always.
 */
export const frameField = selectorString().optional().describe(
  'CSS selector of an <iframe> or <frame> in the top document, e.g. "#checkout-frame" or ' +
    '"iframe[title=Payment]", to work inside that frame (same- or cross-origin) instead of the ' +
    "top document; the selector then applies in the frame's document. Omit for the top document.",
);

/** A CSS selector's string: not empty, at most SELECTOR_MAX_CHARS characters. */
export function selectorString() {
  return z.string().min(1).max(SELECTOR_MAX_CHARS);
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
