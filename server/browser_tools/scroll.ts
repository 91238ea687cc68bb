import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { countSet } from "./dom_fields.ts";

/** How many of the scroll modes (selector; x/y; to) an input uses. */
export function scrollModes(input: Record<string, unknown>): number {
  return countSet(input, ["selector", "to"]) + (countSet(input, ["x", "y"]) > 0 ? 1 : 0);
}

export const scroll: BrowserTool = {
  name: "browser_scroll",
  displayName: "Scroll",
  description: "Scroll a tab's page in one of three ways: selector (bring the first matching " +
    "element to the center of the view, also inside scrollable containers), x/y (scroll the " +
    'page by that many pixels; negative scrolls back) or to ("top" or "bottom" of the page). ' +
    "Pass none to just read the position. Returns tabId, scrollX, scrollY, scrollWidth, " +
    "scrollHeight, viewportWidth, viewportHeight (CSS pixels).",
  input: z.object({
    tabId: tabIdField,
    selector: z.string().min(1).optional().describe("CSS selector of the element to show."),
    x: z.number().finite().optional().describe("Pixels to scroll right (negative: left)."),
    y: z.number().finite().optional().describe("Pixels to scroll down (negative: up)."),
    to: z.enum(["top", "bottom"]).optional().describe("Scroll to the top or bottom of the page."),
  }).refine((input) => scrollModes(input) <= 1, {
    message: "pass only one of selector, x/y or to",
  }),
  method: "dom.scroll",
};
