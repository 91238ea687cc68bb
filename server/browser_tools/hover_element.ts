import { browserTool } from "./browser_tool.ts";

export const hoverElement = browserTool({
  name: "browser_hover_element",
  displayName: "Hover element",
  description: "Move the mouse onto an element (its ref, or the first match of a CSS selector): " +
    "scrolls it into view and sends synthetic pointerover, pointerenter, mouseover, mouseenter, " +
    "pointermove and mousemove events at its center (the previously hovered element gets the " +
    "out/leave events), so the page's hover handlers (menus, tooltips) run. CSS :hover styles " +
    "do not change. Returns tabId, tag and text.",
  method: "dom.hover",
});
