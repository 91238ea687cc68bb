import { browserTool } from "./browser_tool.ts";

export const selectOption = browserTool({
  name: "browser_select_option",
  displayName: "Select option",
  description: "Select an option of a <select> element (by ref or selector), named by exactly " +
    "one of value (the option's value attribute), label (its visible text; exact, else ignoring " +
    "case) or index (from 0), and fire input and change events. In a multiple select the option " +
    "is added to the selection. Returns tabId and selected ([{value, label, index}], every " +
    "selected option). Fails with NOT_A_SELECT for other elements (click custom dropdowns " +
    "instead) and OPTION_NOT_FOUND, which lists the available options.",
  method: "dom.select",
});
