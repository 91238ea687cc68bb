/**
 * `tabs.screenshot` (browser_screenshot_tab): a PNG of the tab's visible area. Chromium can only
 * capture the visible tab of a window, so a background tab is brought to the front first.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";

export const tabsScreenshot: BrowserMethod = async (input, { calls }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  return await calls.run(tabId, "browser_screenshot_tab", async () => {
    if (!tab.active) {
      await chrome.tabs.update(tabId, { active: true });
      await new Promise((resolve) => setTimeout(resolve, 100)); // let it paint
    }
    const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: "png" });
    const comma = dataUrl.indexOf(",");
    return { tabId, mimeType: "image/png", data: dataUrl.slice(comma + 1) };
  });
};
