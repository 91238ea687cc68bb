/** `tabs.list` (browser_list_tabs): every open tab of every window, with its open dialog. */
import type { BrowserMethod } from "./browser_method.ts";

export const tabsList: BrowserMethod<"tabs.list"> = async (_input, { dialogs }) => {
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
      };
    }),
  };
};
