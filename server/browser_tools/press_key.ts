import { browserTool } from "./browser_tool.ts";

export const pressKey = browserTool({
  name: "browser_press_key",
  displayName: "Press key",
  description: "Press a key in a tab's page: focuses the element of ref or selector (default: " +
    'the focused element) and presses the key with real keyboard events (input: "trusted"), ' +
    "modifiers held as a chord, so the browser does what it does for a person: a character is " +
    "typed into a field, Shift+ArrowLeft, Control+Shift+ArrowLeft, Home/End and Control+a " +
    "select text, Control+b bolds in a rich text editor, Enter submits a form, Tab moves focus, " +
    "and page listeners that ignore synthetic events see it. When the debugger is off or busy, " +
    "or the element takes no focus, synthetic key events are sent to it instead (input: " +
    '"synthetic") and the tool does what the key would have done in the page (typing, ' +
    "Backspace/Delete, Enter, Space); browser-level actions then do not happen. Returns tabId, " +
    "key, modifiers, target ({tag, id, name, type}), effect (inserted, deleted, submitted, " +
    "clicked, prevented when the page cancelled the key, or none) and input. When Enter " +
    "navigates the tab, waits for the new page's load (waitForLoad: false does not) and adds " +
    "navigated, url, title and loaded; when it opens a tab, adds newTab ({tabId, url}); a " +
    "dialog it opens is answered at once as dialog ({type, message}).",
  method: "dom.key",
});
