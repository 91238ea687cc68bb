import { browserTool } from "./browser_tool.ts";

export const moveMouse = browserTool({
  name: "browser_move_mouse",
  displayName: "Move mouse",
  description: "Move the mouse to a point of the tab's viewport (x, y in CSS pixels from its " +
    "top-left corner) with a real mouse event, so what is there is hovered (CSS :hover menus, " +
    'tooltips, canvas hover). Returns tabId, x, y and input: "trusted". Needs the debugger: ' +
    "fails with DEBUGGER_OFF or DEBUGGER_BUSY when hub cannot use it.",
  method: "input.moveMouse",
});
