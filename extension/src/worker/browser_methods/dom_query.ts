/**
 * `dom.query` (browser_query_elements): the elements a CSS selector matches, described.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domQuery: BrowserMethod<"dom.query"> = (input, context) =>
  domCall("dom.query", input, context, "browser_query_elements");
