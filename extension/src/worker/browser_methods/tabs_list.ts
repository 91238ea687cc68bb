/** `tabs.list` (browser_list_tabs): every open tab of every window. */
import type { BrowserMethod } from "./browser_method.ts";

export const tabsList: BrowserMethod<"tabs.list"> = async () => {
  const tabs = await chrome.tabs.query({});
  return {
    tabs: tabs.filter((t) => t.id !== undefined && t.id >= 1).map((t) => ({
      tabId: t.id!,
      windowId: t.windowId,
      url: t.url ?? t.pendingUrl ?? "",
      title: t.title ?? "",
      active: t.active,
      status: t.status ?? "complete",
    })),
  };
};
