import { browserTool } from "./browser_tool.ts";

export const hoverElement = browserTool({
  name: "browser_hover_element",
  displayName: "Hover element",
  description: "Move the mouse onto an element (its ref, or the first match of a CSS selector): " +
    "scrolls it into view and moves the real mouse to the center of its visible part " +
    '(input: "trusted"), so CSS :hover menus open and the page\'s hover handlers run (the ' +
    "element left gets its leave events). When the debugger is off or busy, synthetic " +
    "pointer and mouse events run the page's handlers instead, without :hover " +
    '(input: "synthetic"). Returns tabId, tag, text and input. Fails with ELEMENT_COVERED ' +
    "when another element lies over it.",
  method: "dom.hover",
});
