/** `tabs.focus` (browser_focus_tab): makes a tab the active one of its window and focuses it. */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { tabActionFailure } from "./tab_load.ts";

const WHAT = "browser_focus_tab";

export const tabsFocus: BrowserMethod<"tabs.focus"> = async (input, { log }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  try {
    await chrome.tabs.update(tabId, { active: true });
    await chrome.windows.update(tab.windowId, { focused: true });
  } catch (error) {
    throw await tabActionFailure(tabId, WHAT, error);
  }
  const now = await chrome.tabs.get(tabId).catch(() => tab);
  log.debug(`Focused tab ${tabId} in window ${now.windowId}`);
  return {
    tabId,
    windowId: now.windowId,
    url: now.url || now.pendingUrl || "",
    title: now.title ?? "",
  };
};
