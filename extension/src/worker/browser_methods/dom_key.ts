/**
 * `dom.key` (browser_press_key): presses a key (synthetic keyboard events).
 * Runs in the page through the DOM kit (dom_call.ts); an Enter that navigates the tab or opens one is
 * waited for (action_navigation.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { navigatingDomCall } from "./action_navigation.ts";

export const domKey: BrowserMethod<"dom.key"> = (input, context) =>
  navigatingDomCall("dom.key", input, context, "browser_press_key", input.key === "Enter");
