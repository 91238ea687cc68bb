/**
 * `network.requests` (browser_network_requests): the tab's requests since its current document
 * started, as chrome.webRequest reported them (network_log.ts): no debugger, nothing in the page.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";

export const networkRequests: BrowserMethod<"network.requests"> = async (input, context) => {
  const tabId = (await targetTab(input)).id!;
  return { tabId, ...context.network.list(tabId, input) };
};
