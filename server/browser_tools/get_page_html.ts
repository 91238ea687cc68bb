import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { maxLengthField } from "./dom_fields.ts";

export const getPageHtml: BrowserTool = {
  name: "browser_get_page_html",
  displayName: "Get page HTML",
  description: "Read the current HTML (outerHTML, as the DOM is now, not the original source) " +
    "of a tab's page, or of the first element matching a CSS selector. Returns tabId, url, " +
    "html, truncated, totalLength; HTML longer than maxLength (default 20000 characters) is cut " +
    "and ends with a truncation marker. Prefer browser_get_page_text or browser_query_elements " +
    "when they are enough: HTML is large.",
  input: z.object({
    tabId: tabIdField,
    selector: z.string().min(1).optional().describe(
      'CSS selector of the element to read, e.g. "form". Omit for the whole document.',
    ),
    maxLength: maxLengthField,
  }),
  method: "page.html",
};
