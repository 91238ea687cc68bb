import { browserTool } from "./browser_tool.ts";

export const goBack = browserTool({
  name: "browser_go_back",
  displayName: "Go back",
  description: "Go one step back in a tab's history, like the browser's Back button, and by " +
    "default wait for the page (at most 25 s; an entry made by history.pushState counts as " +
    "loaded at once). Returns tabId, url, title, loaded. No earlier entry: NO_HISTORY.",
  method: "tabs.back",
  // Its answer carries the page's title, which the page writes: marked as page content.
  pageContent: true,
});
