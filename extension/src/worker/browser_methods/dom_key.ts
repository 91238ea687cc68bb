/**
 * `dom.key` (browser_press_key): presses a key (synthetic keyboard events).
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domKey: BrowserMethod<"dom.key"> = (input, context) =>
  domCall("dom.key", input, context, "browser_press_key");
