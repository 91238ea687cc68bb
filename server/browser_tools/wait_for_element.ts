import { browserTool } from "./browser_tool.ts";

export const waitForElement = browserTool({
  name: "browser_wait_for_element",
  displayName: "Wait for element",
  description: "Wait until an element matching a CSS selector (or the element of a ref) is in " +
    'the page (state "attached") or visible (state "visible", the default: a non-empty box and ' +
    "not visibility:hidden). Answers as soon as it is, with tabId, waitedMs and element " +
    "(described as by browser_query_elements). Fails with WAIT_TIMEOUT after timeoutMs (default " +
    "10000, at most 25000).",
  method: "dom.wait",
  pageContent: true,
});
