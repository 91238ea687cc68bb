import { z } from "zod";
import type { BrowserTool } from "./browser_tool.ts";

export const closeTab: BrowserTool = {
  name: "browser_close_tab",
  displayName: "Close tab",
  description: "Close a browser tab by its id (from browser_list_tabs); there is no default " +
    "tab. Returns { tabId, closed: true }. A tab id that is not open is TAB_NOT_FOUND.",
  input: z.object({
    tabId: z.number().int().min(1).describe("Id of the tab to close."),
  }),
  method: "tabs.close",
};
