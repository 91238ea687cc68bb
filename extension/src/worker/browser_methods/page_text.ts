/**
 * `page.text` (browser_get_page_text): the visible text of the page or of one element, capped.
 * Runs in the page through the DOM kit (dom_call.ts). Without a selector it reads every frame of
 * the tab (page_text_frames.ts); a tab with one frame reads exactly as a single document does.
 * With `frame`, it reads that frame's document only (frame_target.ts). A line of page text that
 * reads like one hub writes (a frame header, the truncation marker) gets a `\` before it.
 */
import type { BrowserMethod } from "./browser_method.ts";
import type { DomAnswer } from "../../../../protocol/browser_methods/mod.ts";
import { domCall } from "./dom_call.ts";
import { guardedText, readTabText } from "./page_text_frames.ts";

export const pageText: BrowserMethod<"page.text"> = async (input, context) => {
  const oneDocument = async (tabId = input.tabId) =>
    guardedText(
      await domCall("page.text", { ...input, tabId }, context, "browser_get_page_text") as
        & DomAnswer
        & { text: string; truncated: boolean; totalLength: number },
      input.maxLength,
    );
  if (input.selector !== undefined || input.frame !== undefined || input.ref !== undefined) {
    return await oneDocument();
  }
  const { tabId, answer } = await readTabText(input, context);
  return answer ?? await oneDocument(tabId);
};
