import { browserTool } from "./browser_tool.ts";

export const snapshot = browserTool({
  name: "browser_snapshot",
  displayName: "Page snapshot",
  description: "Outline a tab's page (being built).",
  method: "page.snapshot",
});
