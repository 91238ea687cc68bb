import { browserTool } from "./browser_tool.ts";

export const drag = browserTool({
  name: "browser_drag",
  displayName: "Drag",
  description: "Drag with the real mouse from an element (fromRef or fromSelector) or a point " +
    "(fromX, fromY) to an element (toRef or toSelector) or a point (toX, toY): presses at the " +
    "start, moves in steps, releases at the end. Works for HTML5 drag and drop (draggable " +
    "items, dropped with their data) and for pointer-event sliders, boards and canvases. " +
    "Elements are scrolled into view and must not be covered (ELEMENT_COVERED); frame applies " +
    "to both selectors. Returns tabId, from and to ({x, y}, viewport CSS pixels), kind " +
    '("html5" or "pointer") and input: "trusted". Needs the debugger: fails with DEBUGGER_OFF ' +
    "or DEBUGGER_BUSY when hub cannot use it.",
  method: "input.drag",
});
