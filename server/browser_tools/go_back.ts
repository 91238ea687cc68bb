import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const goBack: BrowserTool = {
  name: "browser_go_back",
  displayName: "Go back",
  description: "Go one step back in a tab's history, like the browser's Back button, and by " +
    "default wait for the page (at most 25 s; an entry made by history.pushState counts as " +
    "loaded at once). Returns tabId, url, title, loaded. No earlier entry: NO_HISTORY.",
  input: z.object({
    tabId: tabIdField,
    waitForLoad: z.boolean().default(true).describe("Wait for the page (default true)."),
  }),
  method: "tabs.back",
};
