/**
 * `tabs.reload` (browser_reload_tab): reloads a tab, optionally bypassing the cache, and waits. A
 * page that asks before it is left (beforeunload) answers at once with that `dialog`.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { orDialog } from "./dialog_gate.ts";
import { loadedTab, navigateAndWait, tabActionFailure } from "./tab_load.ts";

const WHAT = "browser_reload_tab";

export const tabsReload: BrowserMethod<"tabs.reload"> = async (input, { log, dialogs }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const { bypassCache } = input;
  log.debug(`Reloading tab ${tabId}${bypassCache ? " (bypassing the cache)" : ""}`, tab.url);
  const { loaded, dialog } = await orDialog(
    dialogs,
    tabId,
    navigateAndWait(
      tabId,
      input.waitForLoad,
      () => chrome.tabs.reload(tabId, { bypassCache }),
      (error) => tabActionFailure(tabId, WHAT, error),
    ),
  );
  const now = await loadedTab(tabId, loaded, WHAT);
  return dialog ? { ...now, dialog } : now;
};
