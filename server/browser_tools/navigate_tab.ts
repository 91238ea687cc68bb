import { browserTool } from "./browser_tool.ts";

export const navigateTab = browserTool({
  name: "browser_navigate_tab",
  displayName: "Navigate tab",
  description: "Load a URL in a tab and, by default, wait until the page has loaded. Returns the " +
    "tab's final url and title. A page that asks before it is left answers at once with " +
    "`dialog` (beforeunload): answer it with browser_handle_dialog.",
  method: "tabs.navigate",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
