import { browserTool } from "./browser_tool.ts";

export const typeText = browserTool({
  name: "browser_type_text",
  displayName: "Type text",
  description: "Type text into an input, textarea or contenteditable element (by ref or " +
    "selector): focuses it, sets its content (replacing it unless clear is false, then " +
    "appending) so the page's framework sees the change, and fires input and change events. " +
    "With submit: true it then submits the field's form (or presses Enter when there is no " +
    "form). Returns tabId, tag, value (the content now, at most 1000 characters) and, when " +
    "submitting, submitted (form, enter or blocked when the form's validation failed, with " +
    "validationMessage); when submitting navigates the tab, it waits for the new page's load " +
    "(waitForLoad: false does not) and adds navigated, url, title and loaded. Fails with " +
    "NOT_EDITABLE when the element takes no text (disabled, read-only, not a text field).",
  method: "dom.type",
});
