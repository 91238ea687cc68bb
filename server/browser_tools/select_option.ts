import { browserTool } from "./browser_tool.ts";

export const selectOption = browserTool({
  name: "browser_select_option",
  displayName: "Select option",
  description: "Select an option, named by exactly one of value, label (its visible text or " +
    "accessible name; exact, else ignoring case) or index (from 0). In a <select> element (by " +
    "ref or selector) it sets the option and fires input and change (in a multiple select the " +
    'option is added; input: "synthetic"). A custom dropdown (role combobox or listbox, ' +
    "aria-haspopup, aria-expanded or aria-controls) is driven with real clicks (input: " +
    '"trusted"): one on the control to open it (unless its options show already), then one on ' +
    "the option with role=option whose name is label, whose data-value or value attribute is " +
    "value, or which is the index-th shown. Returns tabId, selected ([{value, label, index}]) " +
    "and input. Fails with NOT_A_SELECT for other elements, OPTION_NOT_FOUND, which lists the " +
    "available options, and OPTION_DISABLED.",
  method: "dom.select",
});
