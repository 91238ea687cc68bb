/** Reading a page and acting on its elements; each runs in the page through the DOM kit. */
import * as z from "zod";
import {
  countSet,
  frameField,
  maxLengthField,
  PIERCE_HINT,
  selectorField,
  selectorString,
  tabIdField,
  waitForLoadField,
} from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";
import {
  QUERY_DEFAULT_LIMIT,
  QUERY_MAX_LIMIT,
  WAIT_DEFAULT_MS,
  WAIT_MAX_MS,
} from "./dom_limits.ts";

/**
 * How many of the scroll movements (x/y; to) an input uses. At most one: with a selector it moves
 * inside that element's scroll box, without one it moves the page.
 */
export function scrollMoves(input: Record<string, unknown>): number {
  return countSet(input, ["to"]) + (countSet(input, ["x", "y"]) > 0 ? 1 : 0);
}

const elementOnly = (what: string) =>
  z.object({
    selector: selectorField(what),
    tabId: tabIdField,
    frame: frameField,
  });

/** The `waitForLoad` of the actions that may navigate the tab (click, Enter, submit). */
const actionWaitField = (when: string) =>
  waitForLoadField(
    `the new page to load when ${when} navigates the tab (at most 25 s); false answers ` +
      "without waiting for the load",
  );

export const DOM_METHODS = {
  "page.text": {
    input: z.object({
      tabId: tabIdField,
      frame: frameField,
      selector: selectorString().optional().describe(
        'CSS selector of the part to read, e.g. "main" or "#results". Omit for the whole page. ' +
          PIERCE_HINT,
      ),
      maxLength: maxLengthField,
    }),
  },
  "page.html": {
    input: z.object({
      tabId: tabIdField,
      frame: frameField,
      selector: selectorString().optional().describe(
        'CSS selector of the element to read, e.g. "form". Omit for the whole document. ' +
          PIERCE_HINT,
      ),
      maxLength: maxLengthField,
    }),
  },
  "dom.query": {
    input: z.object({
      selector: selectorString().describe(
        'CSS selector, e.g. "a", "input, textarea, select" or "[role=button]". ' + PIERCE_HINT,
      ),
      tabId: tabIdField,
      frame: frameField,
      limit: z.number().int().min(1).max(QUERY_MAX_LIMIT).default(QUERY_DEFAULT_LIMIT).describe(
        `Most elements to describe (default ${QUERY_DEFAULT_LIMIT}, at most ${QUERY_MAX_LIMIT}).`,
      ),
    }),
  },
  "dom.wait": {
    input: z.object({
      selector: selectorField("the element to wait for"),
      tabId: tabIdField,
      frame: frameField,
      state: z.enum(["attached", "visible"]).default("visible").describe(
        '"visible" (default): wait for a visible match; "attached": any match, even hidden.',
      ),
      timeoutMs: z.number().int().min(0).max(WAIT_MAX_MS).default(WAIT_DEFAULT_MS).describe(
        `How long to wait, in milliseconds (default ${WAIT_DEFAULT_MS}, at most ${WAIT_MAX_MS}).`,
      ),
    }),
  },
  "dom.click": {
    input: elementOnly("the element to click").extend({
      waitForLoad: actionWaitField("the click"),
    }),
  },
  "dom.type": {
    input: z.object({
      selector: selectorField("the field"),
      text: z.string().describe("The text to type (an empty string clears the field)."),
      tabId: tabIdField,
      frame: frameField,
      clear: z.boolean().default(true).describe(
        "Replace what the field holds (default true); false appends to it.",
      ),
      submit: z.boolean().default(false).describe("Submit the form afterwards (default false)."),
      waitForLoad: actionWaitField("submitting"),
    }),
  },
  "dom.select": {
    input: z.object({
      selector: selectorField("the <select>"),
      tabId: tabIdField,
      frame: frameField,
      value: z.string().optional().describe("The option's value attribute."),
      label: z.string().optional().describe("The option's visible text."),
      index: z.number().int().min(0).optional().describe("The option's position, from 0."),
    }).refine((input) => countSet(input, ["value", "label", "index"]) === 1, {
      message: "pass exactly one of value, label or index to name the option",
    }),
  },
  "dom.key": {
    input: z.object({
      key: z.string().min(1).describe(
        'A KeyboardEvent.key value: one character ("a", "A", "1", " ") or a name such as ' +
          "Enter, Escape, Tab, Backspace, Delete, ArrowDown, PageUp, Home, F5.",
      ),
      modifiers: z.array(z.enum(["Alt", "Control", "Meta", "Shift"])).max(4).optional()
        .describe("Modifier keys held during the press."),
      selector: selectorString().optional().describe(
        "CSS selector of the element to focus first. Omit to press on the focused element. " +
          PIERCE_HINT,
      ),
      tabId: tabIdField,
      frame: frameField,
      waitForLoad: actionWaitField("Enter"),
    }),
  },
  "dom.scroll": {
    input: z.object({
      tabId: tabIdField,
      frame: frameField,
      selector: selectorString().optional().describe(
        "CSS selector of the element to show. With x/y or to: the element whose own scroll box " +
          `(a scrolling list, grid or chat pane) to scroll instead of the page. ${PIERCE_HINT}`,
      ),
      x: z.number().finite().optional().describe(
        "Pixels to scroll right (negative: left); the page's, or the selector's element's.",
      ),
      y: z.number().finite().optional().describe(
        "Pixels to scroll down (negative: up); the page's, or the selector's element's.",
      ),
      to: z.enum(["top", "bottom"]).optional().describe(
        "Scroll to the top or bottom of the page, or of the selector's element's scroll box.",
      ),
    }).refine((input) => scrollMoves(input) <= 1, {
      message: "pass x/y or to, not both (with a selector, either scrolls inside that element)",
    }),
  },
  "dom.hover": { input: elementOnly("the element to hover") },
} satisfies Record<string, BrowserMethodSpec>;

/** The methods of this file: each is one operation of the page's DOM kit. */
export type DomMethodName = keyof typeof DOM_METHODS;

/** What the page kit answered, with the tab it ran in (fields per method: docs/browser_tools.md). */
export interface DomAnswer {
  tabId: number;
  [field: string]: unknown;
}

/**
 * What an action that may navigate its tab (dom.click, dom.key with Enter, dom.type with submit)
 * adds to its answer. Only set when it happened: an action that did neither answers as before.
 */
export interface ActionNavigation {
  /** The action started a navigation of the tab's page. */
  navigated?: true;
  /** The tab's page after the navigation (the URL still loading when the wait ended first). */
  url?: string;
  title?: string;
  /** Whether the new page finished loading within the wait (false with waitForLoad: false). */
  loaded?: boolean;
  /** A tab the action opened (a target=_blank link, window.open). */
  newTab?: { tabId: number; url: string };
}

/** The methods whose action may navigate the tab. */
export type NavigatingDomMethod = "dom.click" | "dom.key" | "dom.type";

/** What each method of this file answers. */
export type DomResults =
  & { [M in Exclude<keyof typeof DOM_METHODS, NavigatingDomMethod>]: DomAnswer }
  & { [M in NavigatingDomMethod]: DomAnswer & ActionNavigation };
