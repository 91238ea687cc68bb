import { browserTool } from "./browser_tool.ts";

export const networkRequest = browserTool({
  name: "browser_network_request",
  displayName: "Read a network request",
  description:
    "One request of a tab (requestId from browser_network_requests) with its headers and, " +
    "with includeBody, its response body: { tabId, request: { requestId, url, method, " +
    "resourceType, status, statusText?, failed, errorText?, bytes?, durationMs, startedAt, " +
    "fromCache?, remoteAddress?, redirectUrl?, frameId, requestHeaders: [{ name, value }], " +
    "responseHeaders, headersNote? }, body?: { mimeType?, bytes, encoding (text or base64), " +
    "data (cut at 100,000 characters), truncated } }. Values of headers whose name says " +
    "they carry a secret (containing auth, token, key, secret, session, cookie, csrf, xsrf, " +
    "password, signature, credential) are always redacted to their length, and so are " +
    "secret query values in url, redirectUrl, Location and Referer; the browser does not show extensions Cookie and Set-Cookie " +
    "at all. The body needs the browser's debugger (Chromium shows its 'debugging' bar): " +
    "Chromium keeps bodies only of requests made while hub's debugger was attached to the " +
    "tab, so for an older request this fails with BODY_UNAVAILABLE and attaches it: repeat " +
    "the action, then read the new request.",
  method: "network.request",
  pageContent: true,
});
