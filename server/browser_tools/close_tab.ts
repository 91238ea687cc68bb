import { browserTool } from "./browser_tool.ts";

export const closeTab = browserTool({
  name: "browser_close_tab",
  displayName: "Close tab",
  description: "Close a browser tab by its id (from browser_list_tabs); there is no default " +
    "tab. Returns { tabId, closed: true }. A page that asks before it is left answers " +
    "{ tabId, closed: false, dialog } instead: answer it with browser_handle_dialog. A tab id " +
    "that is not open is TAB_NOT_FOUND.",
  method: "tabs.close",
});
