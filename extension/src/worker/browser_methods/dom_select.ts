/**
 * `dom.select` (browser_select_option): selects an option of a <select>.
 * Runs in the page through the DOM kit (dom_call.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { domCall } from "./dom_call.ts";

export const domSelect: BrowserMethod<"dom.select"> = (input, context) =>
  domCall("dom.select", input, context, "browser_select_option");
