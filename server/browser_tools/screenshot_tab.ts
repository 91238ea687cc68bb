import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const screenshotTab: BrowserTool = {
  name: "browser_screenshot_tab",
  displayName: "Screenshot tab",
  description: "Capture the visible area of a tab as a PNG image.",
  input: z.object({ tabId: tabIdField }),
  method: "tabs.screenshot",
  toContent(value) {
    const v = value as { data?: unknown; mimeType?: unknown };
    if (typeof v?.data !== "string") return [{ type: "text", text: JSON.stringify(value) }];
    return [{
      type: "image",
      data: v.data,
      mimeType: typeof v.mimeType === "string" ? v.mimeType : "image/png",
    }];
  },
};
