/**
 * `tabs.close` (browser_close_tab): closes one tab, given by id (never a default tab). A page that
 * asks before it is left (beforeunload) answers at once with `closed: false` and that `dialog`:
 * accepting it with browser_handle_dialog closes the tab.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { tabActionFailure } from "./tab_load.ts";

export const tabsClose: BrowserMethod<"tabs.close"> = async (input, { log, dialogs }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const removing = chrome.tabs.remove(tabId).catch(async (error) => {
    // Closed by someone else in the meantime: that is what the agent wanted.
    const failure = await tabActionFailure(tabId, "browser_close_tab", error);
    if (failure.payload.code !== "TAB_CLOSED") throw failure;
  });
  const raced = await dialogs.race(tabId, removing);
  if ("dialog" in raced) {
    log.info(`Tab ${tabId} asks before it is closed (browser_close_tab)`, tab.url);
    return { tabId, closed: false, dialog: raced.dialog };
  }
  log.info(`Closed tab ${tabId} for browser_close_tab`, tab.url);
  return { tabId, closed: true };
};
