import { browserTool } from "./browser_tool.ts";

export const getPageHtml = browserTool({
  name: "browser_get_page_html",
  displayName: "Get page HTML",
  description: "Read the current HTML (outerHTML, as the DOM is now, not the original source) " +
    "of a tab's page, or of one element (its ref, or the first match of a CSS selector). " +
    "Returns tabId, url, html, truncated, totalLength; HTML longer than maxLength (default " +
    "20000 characters) is cut and ends with a truncation marker. Prefer browser_get_page_text " +
    "or browser_query_elements when they are enough: HTML is large.",
  method: "page.html",
  pageContent: true,
});
