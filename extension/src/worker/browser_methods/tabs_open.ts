/**
 * `tabs.open` (browser_open_tab): opens a new tab with a URL (in the given window, else the last
 * focused one), active unless told otherwise, and waits for it to load unless told not to. The tab
 * is the agent's: the site gate (site_gate.ts) makes it so once the call answers, after checking
 * where the load ended, so a tab an allowed URL redirected to an `off` site never joins the "hub"
 * tab group (agent_group.ts).
 */
import { hubError } from "../../../../protocol/errors.ts";
import type { BrowserMethod } from "./browser_method.ts";
import { loadedTab, watchLoad } from "./tab_load.ts";

const WHAT = "browser_open_tab";

async function checkWindow(windowId: number | undefined): Promise<number | undefined> {
  if (windowId === undefined) return undefined;
  const found = await chrome.windows.get(windowId).catch(() => undefined);
  if (found) return windowId;
  throw hubError(
    "WINDOW_NOT_FOUND",
    `No browser window ${windowId} is open. Call browser_list_windows for ids, or omit windowId.`,
  );
}

export const tabsOpen: BrowserMethod<"tabs.open"> = async (input, { log }) => {
  const { url, active } = input;
  const windowId = await checkWindow(input.windowId);
  const created = await chrome.tabs.create({ url, active, windowId });
  const tabId = created.id!;
  log.info(`Opened tab ${tabId} for ${WHAT}`, url);
  const watch = input.waitForLoad ? watchLoad(tabId, { started: true }) : undefined;
  const loaded = watch ? await watch.loaded : false;
  const now = await loadedTab(tabId, loaded, WHAT);
  return { tabId, windowId: created.windowId, url: now.url || url, title: now.title, loaded };
};
