/**
 * `tabs.navigate` (browser_navigate_tab): loads a URL in the tab and, unless told not to, waits
 * until it has loaded (see tab_load.ts: `loaded: false` after NAVIGATE_WAIT_MS, not a failure).
 * A page that asks before it is left (beforeunload) answers at once with that `dialog`.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { orDialog } from "./dialog_gate.ts";
import { loadedTab, navigateAndWait, tabActionFailure } from "./tab_load.ts";

const WHAT = "browser_navigate_tab";

export const tabsNavigate: BrowserMethod<"tabs.navigate"> = async (input, { log, dialogs }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const { url } = input;
  log.debug(`Navigating tab ${tabId} for ${WHAT}`, url);
  const { loaded, dialog } = await orDialog(
    dialogs,
    tabId,
    navigateAndWait(
      tabId,
      input.waitForLoad,
      () => chrome.tabs.update(tabId, { url }),
      (error) => tabActionFailure(tabId, WHAT, error),
    ),
  );
  const now = await loadedTab(tabId, loaded, WHAT);
  return { ...now, url: now.url || url, ...(dialog ? { dialog } : {}) };
};
