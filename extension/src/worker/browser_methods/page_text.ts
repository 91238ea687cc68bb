/**
 * `page.text` (browser_get_page_text): the visible text of the page or of one element, capped.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const pageText: BrowserMethod<"page.text"> = (input, context) =>
  domCall("page.text", input, context, "browser_get_page_text");
