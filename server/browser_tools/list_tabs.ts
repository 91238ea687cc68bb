import { browserTool } from "./browser_tool.ts";

export const listTabs = browserTool({
  name: "browser_list_tabs",
  displayName: "List tabs",
  description: "List the open browser tabs of all windows: tabId, windowId, url, title, active. " +
    "Use a tabId from here with the other browser_* tools.",
  method: "tabs.list",
});
