import { browserTool } from "./browser_tool.ts";

export const clickAt = browserTool({
  name: "browser_click_at",
  displayName: "Click at a point",
  description: "Click at a point of the tab's viewport (x, y in CSS pixels from its top-left " +
    "corner, as in a browser_screenshot_tab image at scale 1), with real mouse events: for " +
    "canvas apps and maps, or when working from a screenshot. button (left, right, middle), " +
    "clickCount (2: double click) and modifiers as for browser_click_element. Returns tabId, " +
    'x, y and input: "trusted"; like a click on an element, adds navigated/url/title/loaded, ' +
    "newTab, dialog ({type, message}) or download when the click caused them. Needs the " +
    "debugger: fails with DEBUGGER_OFF or DEBUGGER_BUSY when hub cannot use it.",
  method: "input.clickAt",
});
