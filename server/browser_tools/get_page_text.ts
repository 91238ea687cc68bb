import { browserTool } from "./browser_tool.ts";

export const getPageText = browserTool({
  name: "browser_get_page_text",
  displayName: "Get page text",
  description: "Read the visible text of a tab's page, or of one element (its ref, or the first " +
    "match of a CSS selector). Without either, every frame is read too (same- and " +
    'cross-origin), each frame\'s text after a line "--- frame <n>: <url>"; with frame (a CSS ' +
    "selector of an <iframe>), only that frame's document is read. Text hidden from people " +
    "(display:none, hidden, opacity:0, transparent or tiny text, aria-hidden, visually-hidden, " +
    "off-page) is left out; includeHidden: true brings it back. A frame whose site is off for " +
    'agents reads only its line, ending in "[blocked: site not allowed]". Returns ' +
    "tabId, url, title, text, truncated, totalLength; text longer than maxLength (default 20000 " +
    "characters) is cut and ends with a truncation marker. Fails with ELEMENT_NOT_FOUND or " +
    "INVALID_SELECTOR for a bad selector.",
  method: "page.text",
  pageContent: true,
});
