import { browserTool } from "./browser_tool.ts";

export const queryElements = browserTool({
  name: "browser_query_elements",
  displayName: "Query elements",
  description: "List the elements matching a CSS selector in a tab's page: the top document and " +
    "its open shadow roots (web components), or inside one iframe with `frame` (a CSS selector " +
    "of the <iframe>, or its ref f<k>); `host >>> inner` matches inner only inside the open " +
    "shadow roots of the hosts. Returns tabId, total (how many match) and elements (the first " +
    "`limit`, default 20, at most 100), each with index, tag, text (visible text, at most 200 " +
    "characters), attributes (those present of id, class, name, type, href, src, value, " +
    "placeholder, aria-label, role, title, alt; value is the field's current value; checked, " +
    "selected and disabled as booleans), visible, rect ({x, y, width, height} in viewport " +
    "pixels) and ref, which every element tool takes (with ref as input, only under that " +
    "element). Elements hidden from people are not listed nor counted (hiddenLeftOut says how " +
    "many were left out; includeHidden: true lists them), and text leaves hidden parts out. " +
    "No match is not an error: total is 0. Use it to find selectors for the other " +
    "element tools.",
  method: "dom.query",
  pageContent: true,
});
