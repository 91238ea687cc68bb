/**
 * `tabs.open` (browser_open_tab): opens a new tab with a URL (in the given window, else the last
 * focused one), active unless told otherwise, and waits for it to load unless told not to.
 */
import { type BrowserMethod, toolFailure } from "./browser_method.ts";
import { loadedTab, watchLoad } from "./tab_load.ts";

const WHAT = "browser_open_tab";

async function checkWindow(windowId: unknown): Promise<number | undefined> {
  if (typeof windowId !== "number") return undefined;
  const found = await chrome.windows.get(windowId).catch(() => undefined);
  if (found) return windowId;
  throw toolFailure(
    "WINDOW_NOT_FOUND",
    `No browser window ${windowId} is open. Call browser_list_windows for ids, or omit windowId.`,
    "not_found",
  );
}

export const tabsOpen: BrowserMethod = async (input, { log }) => {
  const url = String(input.url);
  const windowId = await checkWindow(input.windowId);
  const active = input.active !== false;
  const created = await chrome.tabs.create({ url, active, windowId });
  const tabId = created.id!;
  log.info(`Opened tab ${tabId} for ${WHAT}`, url);
  const loaded = input.waitForLoad !== false
    ? await watchLoad(tabId, { started: true }).loaded
    : false;
  const now = await loadedTab(tabId, loaded, WHAT);
  return { tabId, windowId: created.windowId, url: now.url || url, title: now.title, loaded };
};
