/** `tabs.close` (browser_close_tab): closes one tab, given by id (never a default tab). */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { tabActionFailure } from "./tab_load.ts";

export const tabsClose: BrowserMethod<"tabs.close"> = async (input, { log }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  await chrome.tabs.remove(tabId).catch(async (error) => {
    // Closed by someone else in the meantime: that is what the agent wanted.
    const failure = await tabActionFailure(tabId, "browser_close_tab", error);
    if (failure.payload.code !== "TAB_CLOSED") throw failure;
  });
  log.info(`Closed tab ${tabId} for browser_close_tab`, tab.url);
  return { tabId, closed: true };
};
