/**
 * `dom.scroll` (browser_scroll): scrolls the page or an element into view.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domScroll: BrowserMethod<"dom.scroll"> = (input, context) =>
  domCall("dom.scroll", input, context, "browser_scroll");
