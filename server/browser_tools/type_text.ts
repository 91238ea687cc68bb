import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { selectorField } from "./dom_fields.ts";

export const typeText: BrowserTool = {
  name: "browser_type_text",
  displayName: "Type text",
  description: "Type text into an input, textarea or contenteditable element: focuses it, sets " +
    "its content (replacing it unless clear is false, then appending) so the page's framework " +
    "sees the change, and fires input and change events. With submit: true it then submits the " +
    "field's form (or presses Enter when there is no form). Returns tabId, tag, value (the " +
    "content now, at most 1000 characters) and, when submitting, submitted (form, enter or " +
    "blocked when the form's validation failed, with validationMessage). Fails with " +
    "NOT_EDITABLE when the element takes no text (disabled, read-only, not a text field).",
  input: z.object({
    selector: selectorField("the field"),
    text: z.string().describe("The text to type (an empty string clears the field)."),
    tabId: tabIdField,
    clear: z.boolean().default(true).describe(
      "Replace what the field holds (default true); false appends to it.",
    ),
    submit: z.boolean().default(false).describe(
      "Submit the form afterwards (default false).",
    ),
  }),
  method: "dom.type",
};
