/**
 * `dom.hover` (browser_hover_element): moves the (synthetic) mouse onto an element.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domHover: BrowserMethod<"dom.hover"> = (input, context) =>
  domCall("dom.hover", input, context, "browser_hover_element");
