import { browserTool } from "./browser_tool.ts";

export const executeScript = browserTool({
  name: "browser_execute_script",
  displayName: "Execute script",
  description: "Run JavaScript in a tab's page, like the DevTools console: an expression's value " +
    "(awaited if it is a promise) comes back as JSON; a thrown error fails the call.",
  method: "scripting.execute",
  pageContent: true,
});
