/**
 * `dom.type` (browser_type_text): types text into a field or contenteditable element.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domType: BrowserMethod<"dom.type"> = (input, context) =>
  domCall("dom.type", input, context, "browser_type_text");
