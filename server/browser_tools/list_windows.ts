import { browserTool } from "./browser_tool.ts";

export const listWindows = browserTool({
  name: "browser_list_windows",
  displayName: "List windows",
  description: "List the browser windows: windowId, focused, state (normal, minimized, " +
    "maximized, fullscreen), type (normal, popup), incognito, tabCount, activeTabId and bounds " +
    "(left, top, width, height). Use a windowId with browser_open_tab.",
  method: "windows.list",
});
