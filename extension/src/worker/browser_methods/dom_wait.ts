/**
 * `dom.wait` (browser_wait_for_element): waits until an element is attached or visible.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domWait: BrowserMethod<"dom.wait"> = (input, context) =>
  domCall("dom.wait", input, context, "browser_wait_for_element");
