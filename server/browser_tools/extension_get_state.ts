import { browserTool } from "./browser_tool.ts";

export const extensionGetState = browserTool({
  name: "extension_get_state",
  displayName: "Get extension state",
  description: "Summarize the hub browser extension as its side panel shows it: " +
    "extensionVersion, link { state, port, problem }, hubVersion, skipPermissions, plugins " +
    "[{ name, version, permission, tabState, tabCount, tabs (at most 20: tabId, url, title, " +
    "ready), tools (count) }], pendingConfirmations, runningCalls. Use it to find out why a " +
    "plugin's tools are unavailable.",
  method: "extension.state",
});
