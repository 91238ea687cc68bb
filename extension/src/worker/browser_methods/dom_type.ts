/**
 * `dom.type` (browser_type_text): types text into a field or contenteditable element.
 * Runs in the page through the DOM kit (dom_call.ts); with `submit`, a navigation it starts is
 * waited for (action_navigation.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { navigatingDomCall } from "./action_navigation.ts";

export const domType: BrowserMethod<"dom.type"> = (input, context) =>
  navigatingDomCall("dom.type", input, context, "browser_type_text", input.submit);
