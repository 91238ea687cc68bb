import { browserTool } from "./browser_tool.ts";

export const clickElement = browserTool({
  name: "browser_click_element",
  displayName: "Click element",
  description: "Click an element, named by ref (from browser_snapshot or " +
    "browser_query_elements, any frame) or by the first match of a CSS selector. Scrolls it " +
    "into view, then clicks with real mouse events at the center of its visible part " +
    '(input: "trusted"; button, clickCount 2 for a double click, modifiers such as ["Shift"]). ' +
    "When the debugger is off or busy, or the element shows nothing to point at, a synthetic " +
    "click (DOM events with the same button, count and modifiers) runs the page's handlers " +
    'instead (input: "synthetic"). Returns tabId, ' +
    "clicked, tag, text and input. When the click navigates the tab, waits for the new page's " +
    "load (waitForLoad: false does not) and adds navigated, url, title and loaded; when it " +
    "opens a tab, adds newTab ({tabId, url}); a dialog it opens is answered at once as dialog " +
    "({type, message}); a download it starts as download. Fails with ELEMENT_COVERED when " +
    "another element (a banner, an overlay) lies over it, naming that element and its ref; " +
    "ELEMENT_NOT_FOUND when nothing matches, INVALID_SELECTOR for a bad selector.",
  method: "dom.click",
});
