/** `tabs.reload` (browser_reload_tab): reloads a tab, optionally bypassing the cache, and waits. */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { loadedTab, navigateAndWait, tabActionFailure } from "./tab_load.ts";

const WHAT = "browser_reload_tab";

export const tabsReload: BrowserMethod<"tabs.reload"> = async (input, { log }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const { bypassCache } = input;
  log.debug(`Reloading tab ${tabId}${bypassCache ? " (bypassing the cache)" : ""}`, tab.url);
  const loaded = await navigateAndWait(
    tabId,
    input.waitForLoad,
    () => chrome.tabs.reload(tabId, { bypassCache }),
    (error) => tabActionFailure(tabId, WHAT, error),
  );
  return await loadedTab(tabId, loaded, WHAT);
};
