import { browserTool } from "./browser_tool.ts";

export const openTab = browserTool({
  name: "browser_open_tab",
  displayName: "Open tab",
  description: "Open a new tab with a URL and, by default, make it the active tab of its window " +
    "and wait until the page has loaded (at most 25 s; then loaded is false). Returns tabId, " +
    "windowId, url, title, loaded. Only http(s) URLs and about:blank can be opened. The tab " +
    'joins the "hub" tab group of its window, which marks the tabs the agent uses.',
  method: "tabs.open",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
