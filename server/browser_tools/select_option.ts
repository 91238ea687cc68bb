import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { countSet, selectorField } from "./dom_fields.ts";

export const selectOption: BrowserTool = {
  name: "browser_select_option",
  displayName: "Select option",
  description: "Select an option of a <select> element, named by exactly one of value (the " +
    "option's value attribute), label (its visible text; exact, else ignoring case) or index " +
    "(from 0), and fire input and change events. In a multiple select the option is added to " +
    "the selection. Returns tabId and selected ([{value, label, index}], every selected " +
    "option). Fails with NOT_A_SELECT for other elements (click custom dropdowns instead) and " +
    "OPTION_NOT_FOUND, which lists the available options.",
  input: z.object({
    selector: selectorField("the <select>"),
    tabId: tabIdField,
    value: z.string().optional().describe("The option's value attribute."),
    label: z.string().optional().describe("The option's visible text."),
    index: z.number().int().min(0).optional().describe("The option's position, from 0."),
  }).refine((input) => countSet(input, ["value", "label", "index"]) === 1, {
    message: "pass exactly one of value, label or index to name the option",
  }),
  method: "dom.select",
};
