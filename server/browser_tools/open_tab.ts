import { z } from "zod";
import type { BrowserTool } from "./browser_tool.ts";

/** http(s) URLs and about:blank; anything else (file:, javascript:, chrome:) is refused. */
export function isOpenableUrl(value: string): boolean {
  if (value === "about:blank") return true;
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

export const openTab: BrowserTool = {
  name: "browser_open_tab",
  displayName: "Open tab",
  description: "Open a new tab with a URL and, by default, make it the active tab of its window " +
    "and wait until the page has loaded (at most 25 s; then loaded is false). Returns tabId, " +
    "windowId, url, title, loaded. Only http(s) URLs and about:blank can be opened.",
  input: z.object({
    url: z.string().refine(isOpenableUrl, {
      message: 'must be an absolute http(s) URL (e.g. "https://example.com/") or "about:blank"',
    }).describe('Absolute http(s) URL, or "about:blank" for an empty tab.'),
    active: z.boolean().default(true).describe(
      "Make it the active tab of its window (default true). Does not focus the window.",
    ),
    windowId: z.number().int().min(1).optional().describe(
      "Window to open it in (from browser_list_windows). Omit for the last focused window.",
    ),
    waitForLoad: z.boolean().default(true).describe("Wait for the load event (default true)."),
  }),
  method: "tabs.open",
};
