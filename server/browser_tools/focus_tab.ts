import { z } from "zod";
import type { BrowserTool } from "./browser_tool.ts";

export const focusTab: BrowserTool = {
  name: "browser_focus_tab",
  displayName: "Focus tab",
  description: "Make a tab the active tab of its window and focus that window, so tools called " +
    "without a tabId act on it. Returns tabId, windowId, url, title.",
  input: z.object({
    tabId: z.number().int().min(1).describe("Id of the tab to focus (from browser_list_tabs)."),
  }),
  method: "tabs.focus",
};
