import { browserTool } from "./browser_tool.ts";

export const reloadTab = browserTool({
  name: "browser_reload_tab",
  displayName: "Reload tab",
  description: "Reload a tab and, by default, wait until the page has loaded again (at most " +
    "25 s; then loaded is false). Returns tabId, url, title, loaded; a page that asks before " +
    "it is left answers at once with `dialog` (beforeunload): browser_handle_dialog.",
  method: "tabs.reload",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
