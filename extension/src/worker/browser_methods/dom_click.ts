/**
 * `dom.click` (browser_click_element): clicks the first element matching a CSS selector, after
 * scrolling it into view. Runs in the extension's isolated world through the DOM kit
 * (dom_call.ts), which shares the page's DOM but not its scripts, so a page cannot fake the
 * outcome. A click that navigates the tab or opens one is waited for (action_navigation.ts).
 */
import type { BrowserMethod } from "./browser_method.ts";
import { navigatingDomCall } from "./action_navigation.ts";

export const domClick: BrowserMethod<"dom.click"> = (input, context) =>
  navigatingDomCall("dom.click", input, context, "browser_click_element", true);
