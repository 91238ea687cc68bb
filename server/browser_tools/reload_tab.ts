import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const reloadTab: BrowserTool = {
  name: "browser_reload_tab",
  displayName: "Reload tab",
  description: "Reload a tab and, by default, wait until the page has loaded again (at most " +
    "25 s; then loaded is false). Returns tabId, url, title, loaded.",
  input: z.object({
    tabId: tabIdField,
    bypassCache: z.boolean().default(false).describe(
      "Ignore the browser cache, like Shift+Reload (default false).",
    ),
    waitForLoad: z.boolean().default(true).describe("Wait for the load event (default true)."),
  }),
  method: "tabs.reload",
};
