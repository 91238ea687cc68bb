import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";
import { selectorField } from "./dom_fields.ts";

export const waitForElement: BrowserTool = {
  name: "browser_wait_for_element",
  displayName: "Wait for element",
  description: "Wait until an element matching a CSS selector is in the page (state " +
    '"attached") or visible (state "visible", the default: a non-empty box and not ' +
    "visibility:hidden). Answers as soon as it is, with tabId, waitedMs and element (described " +
    "as by browser_query_elements). Fails with WAIT_TIMEOUT after timeoutMs (default 10000, " +
    "at most 25000).",
  input: z.object({
    selector: selectorField("the element to wait for"),
    tabId: tabIdField,
    state: z.enum(["attached", "visible"]).default("visible").describe(
      '"visible" (default): wait for a visible match; "attached": any match, even hidden.',
    ),
    timeoutMs: z.number().int().min(0).max(25_000).default(10_000).describe(
      "How long to wait, in milliseconds (default 10000, at most 25000).",
    ),
  }),
  method: "dom.wait",
};
