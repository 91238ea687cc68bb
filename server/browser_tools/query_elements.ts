import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const queryElements: BrowserTool = {
  name: "browser_query_elements",
  displayName: "Query elements",
  description: "List the elements matching a CSS selector in a tab's page (top document only). " +
    "Returns tabId, total (how many match) and elements (the first `limit`, default 20, at most " +
    "100), each with index, tag, text (visible text, at most 200 characters), attributes (those " +
    "present of id, class, name, type, href, src, value, placeholder, aria-label, role, title, " +
    "alt; value is the field's current value; checked, selected and disabled as booleans), " +
    "visible and rect ({x, y, width, height} in viewport pixels). No match is not an error: " +
    "total is 0. Use it to find selectors for the other element tools.",
  input: z.object({
    selector: z.string().min(1).describe(
      'CSS selector, e.g. "a", "input, textarea, select" or "[role=button]".',
    ),
    tabId: tabIdField,
    limit: z.number().int().min(1).max(100).default(20).describe(
      "Most elements to describe (default 20, at most 100).",
    ),
  }),
  method: "dom.query",
};
