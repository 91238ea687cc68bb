import { browserTool } from "./browser_tool.ts";

export const typeText = browserTool({
  name: "browser_type_text",
  displayName: "Type text",
  description: "Type text into an input, textarea or contenteditable element (by ref or " +
    "selector): focuses it (a focused field keeps its focus), selects what it holds (or, with " +
    "clear: false, puts the caret at its end) and inserts the text as the browser inserts typed " +
    'text (input: "trusted"; an empty text deletes), then fires change. When the debugger is ' +
    "off or busy, or the field takes no typed text (a date field), it sets the content through " +
    'the DOM and fires input and change instead (input: "synthetic"). With submit: true it then ' +
    "submits the field's form (or presses Enter when there is no form). Returns tabId, tag, " +
    "value (the content now, at most 1000 characters), input and, when submitting, submitted " +
    "(form, enter or blocked when the form's validation failed, with validationMessage); when " +
    "submitting navigates the tab, it waits for the new page's load (waitForLoad: false does " +
    "not) and adds navigated, url, title and loaded; a dialog it opens is answered at once as " +
    "dialog ({type, message}). Fails with NOT_EDITABLE when the element takes no text " +
    "(disabled, read-only, not a text field).",
  method: "dom.type",
});
