import { browserTool } from "./browser_tool.ts";

export const focusTab = browserTool({
  name: "browser_focus_tab",
  displayName: "Focus tab",
  description: "Make a tab the active tab of its window and focus that window, so tools called " +
    "without a tabId act on it. Returns tabId, windowId, url, title.",
  method: "tabs.focus",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
