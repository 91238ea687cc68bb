import { browserTool } from "./browser_tool.ts";

export const listTabs = browserTool({
  name: "browser_list_tabs",
  displayName: "List tabs",
  description: "List the open browser tabs of all windows: tabId, windowId, url, title, active, " +
    "and dialog: the alert, confirm, prompt or beforeunload dialog open in the tab " +
    "({type, message}; answer it with browser_handle_dialog), or null; agentGroup: true for " +
    'the agent\'s tabs (the "hub" tab group, and tabs opened with browser_open_tab). Use a tabId ' +
    "from here with the other browser_* tools.",
  method: "tabs.list",
});
