import { browserTool } from "./browser_tool.ts";

export const goForward = browserTool({
  name: "browser_go_forward",
  displayName: "Go forward",
  description: "Go one step forward in a tab's history, like the browser's Forward button, and " +
    "by default wait for the page (at most 25 s; an entry made by history.pushState counts as " +
    "loaded at once). Returns tabId, url, title, loaded. No later entry: NO_HISTORY.",
  method: "tabs.forward",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
