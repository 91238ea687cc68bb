import { z } from "zod";
import { type BrowserTool, tabIdField } from "./browser_tool.ts";

export const executeScript: BrowserTool = {
  name: "browser_execute_script",
  displayName: "Execute script",
  description: "Run JavaScript in a tab's page, like the DevTools console: an expression's value " +
    "(awaited if it is a promise) comes back as JSON; a thrown error fails the call.",
  input: z.object({
    code: z.string().min(1).describe('An expression or statements, e.g. "document.title".'),
    tabId: tabIdField,
  }),
  method: "scripting.execute",
};
