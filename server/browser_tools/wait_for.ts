import { browserTool } from "./browser_tool.ts";

export const waitFor = browserTool({
  name: "browser_wait_for",
  displayName: "Wait for",
  description: "Wait for text or an element (being built).",
  method: "page.waitFor",
});
