/**
 * `tabs.screenshot` (browser_screenshot_tab): the tab's visible area as a PNG, or, when the PNG
 * is larger than `maxBytes`, as a JPEG re-encoded from it at falling quality (80, 60, 40). When
 * even that is too large the call fails with SCREENSHOT_TOO_LARGE. Chromium can only capture the
 * visible tab of a window, so a background tab is brought to the front first. The JPEG is made
 * from the one capture (OffscreenCanvas) because Chromium allows only two captures per second.
 * One element (`ref`/`selector`) or the whole page (`fullPage`): screenshot_area.ts.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { areaShot } from "./screenshot_area.ts";
import { capturePng, fitShot, jpegEncoder } from "./screenshot_image.ts";

export const tabsScreenshot: BrowserMethod<"tabs.screenshot"> = async (input, context) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const { maxBytes } = input;
  return await context.calls.run(tabId, "browser_screenshot_tab", async () => {
    if (!tab.active) {
      await chrome.tabs.update(tabId, { active: true });
      await new Promise((resolve) => setTimeout(resolve, 100)); // let it paint
    }
    if (input.ref !== undefined || input.selector !== undefined || input.fullPage) {
      return await areaShot(tab, input, context);
    }
    const png = await capturePng(tab.windowId);
    return await fitShot(tabId, png, maxBytes, jpegEncoder(png));
  });
};
