import { browserTool } from "./browser_tool.ts";

export const pressKey = browserTool({
  name: "browser_press_key",
  displayName: "Press key",
  description: "Press a key in a tab's page: focuses the element of ref or selector (default: " +
    "the focused element, else the body) and sends it synthetic keydown, keypress (for " +
    "characters and Enter) and keyup events with key, code and modifier flags; the page's " +
    "handlers see them. Because synthetic events have no default action, the tool also does " +
    "what the key would have done in the page: a character is typed into a focused text field, " +
    "Backspace/Delete delete there, Enter submits the field's form (or clicks a focused button " +
    "or link, or adds a line in a textarea), Space clicks a focused button or checkbox. " +
    "Browser-level actions do NOT happen: Tab does not move focus, arrows and PageDown do not " +
    "scroll (use browser_scroll), shortcuts like Control+T do nothing. Returns tabId, key, " +
    "modifiers, target ({tag, id, name, type}) and effect (inserted, deleted, submitted, " +
    "clicked, prevented when the page cancelled the event, or none). When Enter navigates the " +
    "tab, waits for the new page's load (waitForLoad: false does not) and adds navigated, url, " +
    "title and loaded; when it opens a tab, adds newTab ({tabId, url}).",
  method: "dom.key",
});
