import { type HubError, hubError } from "../../protocol/errors.ts";
import { browserTool } from "./browser_tool.ts";
import type { ContentBlock } from "./browser_tool_interface.ts";
import { DEFAULT_MAX_BYTES, MAX_CAPTURE_SIDE } from "../../protocol/screenshot.ts";
import { fromBase64 } from "../../protocol/bytes.ts";

/** `screenshot-2025-01-02T03-04-05.678Z-tab7.png` (no colons, so it works on every OS). */
export function screenshotFileName(time: number, tabId: number, format: string): string {
  const stamp = new Date(time).toISOString().replaceAll(":", "-");
  return `screenshot-${stamp}-tab${tabId}.${format === "jpeg" ? "jpg" : "png"}`;
}

export const screenshotTab = browserTool({
  name: "browser_screenshot_tab",
  displayName: "Screenshot tab",
  description: "Capture the visible area of a tab (a background tab is brought to the front " +
    "first) as MCP image content. With ref or selector (+ frame): that element only, scrolled " +
    "into view, whole even where it is larger than the window. With fullPage: true, the whole " +
    `page, top to bottom. Elements and pages are cut at ${MAX_CAPTURE_SIDE} CSS px a side (a ` +
    "text block says so). Capturing beyond the window uses the browser's debugger: with it off " +
    "or held by DevTools, an element that fits in the window still works, anything larger " +
    "fails with DEBUGGER_OFF or DEBUGGER_BUSY. It is a PNG when the PNG is at most maxBytes (default " +
    `${DEFAULT_MAX_BYTES} bytes), else a JPEG at quality 80, 60 or 40 (the first that fits), ` +
    "with a text block saying it was reduced; if none fits the call fails with " +
    "SCREENSHOT_TOO_LARGE. save: true also writes the image to " +
    "<hub config dir>/screenshots/screenshot-<time>-tab<id>.png (or .jpg) and adds a text " +
    "block with the path.",
  method: "tabs.screenshot",
  async toContent(shot, { input, now, saveFile }) {
    // An extension of another version may answer without an image: show what it sent.
    if (typeof shot?.data !== "string") return [{ type: "text", text: JSON.stringify(shot) }];
    const jpeg = shot.mimeType === "image/jpeg";
    const content: ContentBlock[] = [{
      type: "image",
      data: shot.data,
      mimeType: jpeg ? "image/jpeg" : "image/png",
    }];
    if (shot.reduced) {
      content.push({
        type: "text",
        text: `Reduced: the PNG was ${shot.pngBytes} bytes, over maxBytes ${shot.maxBytes}, so ` +
          `this is a JPEG at quality ${shot.quality} (${shot.bytes} bytes).`,
      });
    }
    if (shot.cut && shot.clip) {
      const what = shot.area === "page" ? "page" : "element";
      content.push({
        type: "text",
        text: `Cut: the ${what} is larger than ${MAX_CAPTURE_SIDE} CSS px a side, so this ` +
          `shows its top left ${shot.clip.width}x${shot.clip.height} px.`,
      });
    }
    if (input.save) {
      const name = screenshotFileName(now(), shot.tabId, jpeg ? "jpeg" : "png");
      const path = await saveFile(name, fromBase64(shot.data)).catch((error) => {
        throw saveFailed(name, error);
      });
      content.push({ type: "text", text: `Saved the screenshot to ${path}` });
    }
    return content;
  },
});

function saveFailed(name: string, error: unknown): HubError {
  return hubError(
    "SAVE_FAILED",
    `Could not save the screenshot as ${name}: ${(error as Error)?.message ?? error}. ` +
      "Check that the hub can write to its config folder, or call without save.",
    undefined,
    { fromTool: true },
  );
}
