/**
 * `network.request` (browser_network_request): one recorded request with its headers (secret
 * values redacted) and, with `includeBody`, its response body through the debugger
 * (network_bodies.ts).
 */
import { hubError } from "../../../../protocol/errors.ts";
import { type BrowserMethod, targetTab } from "./browser_method.ts";

export const networkRequest: BrowserMethod<"network.request"> = async (input, context) => {
  const tabId = (await targetTab(input)).id!;
  const request = context.network.get(tabId, input.requestId);
  if (!request) {
    throw hubError(
      "REQUEST_NOT_FOUND",
      `Tab ${tabId} has no request ${input.requestId} since its current page loaded (a new ` +
        "page forgets the old page's requests, and a tab keeps only its newest 500). Call " +
        "browser_network_requests for the ids.",
    );
  }
  if (!input.includeBody) return { tabId, request };
  return { tabId, request, body: await context.network.body(context.sessions, tabId, request) };
};
