/** Input fields several browser methods share, with the descriptions agents read. */
import * as z from "zod";
import { DEFAULT_MAX_CHARS, MAX_CHARS } from "../text_cap.ts";
import { SELECTOR_MAX_CHARS } from "./dom_limits.ts";
import { REF_MAX_CHARS, REF_PATTERN } from "./refs.ts";

/** The optional `tabId` most methods take; omitted means the focused window's active tab. */
export const tabIdField = z.number().int().min(1).optional().describe(
  "Browser tab id (from browser_list_tabs). Omit to use the active tab of the focused window.",
);

/** How a selector reaches inside web components, for the selector fields' descriptions. */
export const PIERCE_HINT = 'Write "host >>> inner" to match inner only inside the open shadow ' +
  'roots of the elements host matches, e.g. "x-card >>> button".';

/**
 * The CSS selector of the element a method acts on (or pass `ref`); the method takes its first
 * match in the top document, or, when the document has none, the first match in its open shadow
 * roots (composed-tree order).
 */
export function selectorField(what = "the element") {
  return selectorString().optional().describe(
    `CSS selector of ${what}, e.g. "#email" or "form button[type=submit]"; the first match is ` +
      "used (top document and its open shadow roots; inside an iframe only with `frame`). " +
      PIERCE_HINT + " Pass either selector or ref.",
  );
}

/**
 * The frame a selector tool works in: a frame's ref from browser_snapshot (`f1`), or a CSS selector
 * (may use `>>>`) of an `<iframe>` or `<frame>` of the top document. Omitted: the top document.
 */
export const frameField = selectorString().optional().describe(
  'The frame to work in: its ref from browser_snapshot (e.g. "f1"), or a CSS selector of an ' +
    '<iframe> or <frame> in the top document (e.g. "#checkout-frame" or "iframe[title=Payment]"), ' +
    "same- or cross-origin; `selector` then applies in the frame's document. Omit for the top " +
    "document. Not needed with `ref`: a ref knows its frame.",
);

/**
 * An element's ref (`e12`, `f1e3`) from browser_snapshot or browser_query_elements; `what` says
 * what the element is for this method.
 */
export function refField(what = "the element") {
  return z.string().min(1).max(REF_MAX_CHARS).regex(REF_PATTERN, {
    message: 'not a ref: refs look like "e12" or "f1e3" (from browser_snapshot)',
  }).optional().describe(
    `Ref of ${what} from browser_snapshot or browser_query_elements, e.g. "e12" or "f1e3" (an ` +
      "element inside a frame or a shadow root works the same). Pass either ref or selector.",
  );
}

/** The message of the refinement that wants one element target. */
export const ONE_TARGET = "pass exactly one of ref or selector to name the element";
/** The message of the refinement that allows at most one element target. */
export const AT_MOST_ONE_TARGET = "pass ref or selector, not both";

/** Whether exactly one of `ref` and `selector` is set. */
export const oneTarget = (input: Record<string, unknown>) =>
  countSet(input, ["ref", "selector"]) === 1;
/** Whether at most one of `ref` and `selector` is set. */
export const atMostOneTarget = (input: Record<string, unknown>) =>
  countSet(input, ["ref", "selector"]) <= 1;

/** `schema` refined to take exactly one of `ref` and `selector` (an element method's target). */
export function withOneTarget<T extends z.ZodType<Record<string, unknown>>>(schema: T) {
  return schema.refine(oneTarget, { message: ONE_TARGET });
}

/** `schema` refined to take `ref` or `selector` or neither, never both (an optional target). */
export function withAtMostOneTarget<T extends z.ZodType<Record<string, unknown>>>(schema: T) {
  return schema.refine(atMostOneTarget, { message: AT_MOST_ONE_TARGET });
}

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
