import { browserTool } from "./browser_tool.ts";

export const networkRequests = browserTool({
  name: "browser_network_requests",
  displayName: "List network requests",
  description:
    "List a tab's network requests since its current page loaded (the page itself, its " +
    "scripts, styles, images, frames, fetch/XMLHttpRequest calls…), oldest first: { tabId, " +
    "requests: [{ requestId, url, method, resourceType, status (null until it completed, " +
    "and for a failed one), " +
    "failed, errorText? (e.g. net::ERR_CONNECTION_REFUSED), bytes? (Content-Length), " +
    "durationMs (null while in flight), startedAt (ISO 8601) }], total (how many matched), " +
    "truncated (more matched than limit, or the tab made more than 500 requests and the " +
    "oldest were dropped), note? (set when the tab's earlier requests were dropped because " +
    "the log keeps at most 20 tabs) }. URLs keep their shape but values of secret query " +
    "parameters (code, token, key, sig, password, …) and user:password are redacted, and " +
    "urlIncludes matches the redacted URL. resourceType uses Chromium's webRequest names (xmlhttprequest " +
    "covers fetch). failed means no response at all; failedOnly also lists 4xx/5xx answers. " +
    "Recorded for every tab without the debugger; a redirect's next hop has the id " +
    "<id>-<n>. Read one request's headers and body with browser_network_request.",
  method: "network.requests",
  pageContent: true,
});
