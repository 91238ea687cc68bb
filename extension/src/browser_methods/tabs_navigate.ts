/**
 * `tabs.navigate` (browser_navigate_tab): loads a URL in the tab and, unless told not to, waits
 * until it has loaded. Waiting stops short of the hub's 30 s call timeout and then answers with
 * `loaded: false` rather than failing, since the navigation itself happened.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";

export const NAVIGATE_WAIT_MS = 25_000;

function loaded(tabId: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let sawLoading = false;
    const done = (value: boolean) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      resolve(value);
    };
    const onUpdated = (id: number, info: { status?: string }) => {
      if (id !== tabId) return;
      if (info.status === "loading") sawLoading = true;
      if (info.status === "complete" && sawLoading) done(true);
    };
    const onRemoved = (id: number) => id === tabId && done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
  });
}

export const tabsNavigate: BrowserMethod = async (input, { calls }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const url = String(input.url);
  const wait = input.waitForLoad !== false ? loaded(tabId, NAVIGATE_WAIT_MS) : undefined;
  await calls.run(tabId, "browser_navigate_tab", () => chrome.tabs.update(tabId, { url }));
  const didLoad = wait ? await wait : false;
  const now = await chrome.tabs.get(tabId).catch(() => undefined);
  return {
    tabId,
    url: now?.url ?? now?.pendingUrl ?? url,
    title: now?.title ?? "",
    loaded: didLoad,
  };
};
