/**
 * browser_wait_for: wait until text shows on a tab's page or is gone from it (every frame), or
 * until an element reaches a state. The extension checks the condition again and again until it
 * holds or timeoutMs passes (extension/src/worker/browser_methods/page_wait_for.ts); this file
 * names and describes the tool, whose answer is the method's result as it is.
 */
import { browserTool } from "./browser_tool.ts";

export const waitFor = browserTool({
  name: "browser_wait_for",
  displayName: "Wait for",
  description: "Wait until text shows on the page (text) or is gone from it (textGone), in any " +
    'frame, as a substring or "/regex/flags" (a regex is matched within one line of text, lines ' +
    "cut at 1000 characters, the first 20000 characters of each document's text; a repeat inside a " +
    "repeat such as (a+)+, a repeated choice such as (a|b)+ or more than two unbounded repeats are " +
    "refused); textGone needs every " +
    "frame's answer, so a busy frame keeps it waiting. Or wait until an element (ref or selector) is " +
    '"visible", "hidden" or "detached" (state). Text and elements hidden from people do not ' +
    "count as shown. Keeps waiting across a navigation of the tab, so it can wait for what the " +
    "next page shows. Answers tabId, waitedMs and matched (text, textGone or state), with " +
    "element for ref/selector; fails with WAIT_TIMEOUT, saying what it saw, after timeoutMs " +
    "(default 10000, at most 25000). Use it after an action whose result appears later; " +
    "browser_wait_for_element waits only for a selector to be attached or visible.",
  method: "page.waitFor",
  pageContent: true,
});
