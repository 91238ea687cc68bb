import { browserTool } from "./browser_tool.ts";

export const scroll = browserTool({
  name: "browser_scroll",
  displayName: "Scroll",
  description: "Scroll a tab's page in one of three ways: ref or selector (bring the element to " +
    "the center of the view, also inside scrollable containers), x/y (scroll the page by that " +
    'many pixels; negative scrolls back) or to ("top" or "bottom" of the page). Pass none to ' +
    "just read the position. A ref or selector with x/y or to scrolls inside that element's own " +
    "scroll box instead (a scrolling list, grid or chat pane; NOT_SCROLLABLE if it has none). " +
    "Returns tabId, scrollX, scrollY, scrollWidth, scrollHeight, viewportWidth, viewportHeight " +
    "(CSS pixels), and with a selector and x/y or to, element: { tag, scrollLeft, scrollTop, " +
    "scrollWidth, scrollHeight, clientWidth, clientHeight, moreLeft, moreRight, moreAbove, " +
    "moreBelow }.",
  method: "dom.scroll",
});
