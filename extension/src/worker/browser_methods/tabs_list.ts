/**
 * `tabs.list` (browser_list_tabs): every open tab of every window, with its open dialog and whether
 * it is one of the agent's tabs (agent_group.ts). Listing joins no tab to the group.
 */
import type { BrowserMethod } from "./browser_method.ts";

export const tabsList: BrowserMethod<"tabs.list"> = async (_input, { dialogs, agentGroup }) => {
  const tabs = await chrome.tabs.query({});
  return {
    tabs: tabs.filter((t) => t.id !== undefined && t.id >= 1).map((t) => {
      const dialog = dialogs.open(t.id!);
      return {
        tabId: t.id!,
        windowId: t.windowId,
        url: t.url ?? t.pendingUrl ?? "",
        title: t.title ?? "",
        active: t.active,
        status: t.status ?? "complete",
        dialog: dialog ? { type: dialog.type, message: dialog.message } : null,
        agentGroup: agentGroup.isMember(t),
      };
    }),
  };
};
