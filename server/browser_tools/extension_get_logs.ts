import { browserTool } from "./browser_tool.ts";

export const extensionGetLogs = browserTool({
  name: "extension_get_logs",
  displayName: "Get extension logs",
  description: "Read the hub browser extension's own log (connection changes, failed " +
    "injections, tabs opened or closed by tools), oldest first and newest last: " +
    "{ entries: [{ time (ISO 8601), level, message }] }. The extension keeps the last 500 " +
    "entries since it last started; long messages are cut.",
  method: "extension.logs",
});
