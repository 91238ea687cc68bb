import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { maxLengthField } from "./dom_fields.ts";

export const getPageText: BrowserTool = {
  name: "browser_get_page_text",
  displayName: "Get page text",
  description: "Read the visible text of a tab's page (innerText of the body), or of the first " +
    "element matching a CSS selector. Returns tabId, url, title, text, truncated, totalLength; " +
    "text longer than maxLength (default 20000 characters) is cut and ends with a truncation " +
    "marker. Fails with ELEMENT_NOT_FOUND or INVALID_SELECTOR for a bad selector.",
  input: z.object({
    tabId: tabIdField,
    selector: z.string().min(1).optional().describe(
      'CSS selector of the part to read, e.g. "main" or "#results". Omit for the whole page.',
    ),
    maxLength: maxLengthField,
  }),
  method: "page.text",
};
