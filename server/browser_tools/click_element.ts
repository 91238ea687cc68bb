import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const clickElement: BrowserTool = {
  name: "browser_click_element",
  displayName: "Click element",
  description: "Click the first element that matches a CSS selector (scrolled into view first). " +
    "Fails when nothing matches.",
  input: z.object({
    selector: z.string().min(1).describe('CSS selector, e.g. "button[type=submit]".'),
    tabId: tabIdField,
  }),
  method: "dom.click",
};
