/** `windows.list` (browser_list_windows): every browser window with its tab count and size. */
import type { BrowserMethod } from "./browser_method.ts";

export function windowSummary(window: chrome.windows.Window) {
  const tabs = window.tabs ?? [];
  return {
    windowId: window.id!,
    focused: window.focused,
    state: window.state ?? "normal",
    type: window.type ?? "normal",
    incognito: window.incognito,
    tabCount: tabs.length,
    activeTabId: tabs.find((t) => t.active)?.id ?? null,
    left: window.left ?? null,
    top: window.top ?? null,
    width: window.width ?? null,
    height: window.height ?? null,
  };
}

export const windowsList: BrowserMethod<"windows.list"> = async () => {
  const windows = await chrome.windows.getAll({ populate: true });
  return { windows: windows.filter((w) => w.id !== undefined).map(windowSummary) };
};
