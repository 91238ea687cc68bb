/**
 * `page.text` (browser_get_page_text): the visible text of the page or of one element, capped.
 * Runs in the page through the DOM kit (dom_call.ts). Without a selector it reads every frame of
 * the tab (page_text_frames.ts); a tab with one frame reads exactly as a single document does.
 * With `frame`, it reads that frame's document only (frame_target.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";
import { readTabText } from "./page_text_frames.ts";

export const pageText: BrowserMethod<"page.text"> = async (input, context) => {
  if (input.selector !== undefined || input.frame !== undefined) {
    return await domCall("page.text", input, context, "browser_get_page_text");
  }
  const { tabId, answer } = await readTabText(input, context);
  return answer ??
    await domCall("page.text", { ...input, tabId }, context, "browser_get_page_text");
};
