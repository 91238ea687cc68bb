import { browserTool } from "./browser_tool.ts";

export const clickElement = browserTool({
  name: "browser_click_element",
  displayName: "Click element",
  description: "Click an element, named by ref (from browser_snapshot or " +
    "browser_query_elements, any frame) or by the first match of a CSS selector (scrolled into " +
    "view first; a synthetic click, which runs the page's click handlers, follows links and " +
    "submits forms). Returns tabId, clicked, tag and text. When the click navigates the tab, " +
    "waits for the new page's load (waitForLoad: false does not) and adds navigated, url, title " +
    "and loaded; when it opens a tab, adds newTab ({tabId, url}). Fails with ELEMENT_NOT_FOUND " +
    "when nothing matches, INVALID_SELECTOR for a bad selector.",
  method: "dom.click",
});
