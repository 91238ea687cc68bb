import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const navigateTab: BrowserTool = {
  name: "browser_navigate_tab",
  displayName: "Navigate tab",
  description: "Load a URL in a tab and, by default, wait until the page has loaded. Returns the " +
    "tab's final url and title.",
  input: z.object({
    url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL to load."),
    tabId: tabIdField,
    waitForLoad: z.boolean().default(true).describe("Wait for the load event (default true)."),
  }),
  method: "tabs.navigate",
};
