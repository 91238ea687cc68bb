/**
 * `page.html` (browser_get_page_html): the HTML of the page or of one element, capped.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const pageHtml: BrowserMethod<"page.html"> = (input, context) =>
  domCall("page.html", input, context, "browser_get_page_html");
