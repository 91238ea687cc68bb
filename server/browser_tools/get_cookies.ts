import { browserTool } from "./browser_tool.ts";

export const getCookies = browserTool({
  name: "browser_get_cookies",
  displayName: "Get cookies",
  description: "List the cookies the browser would send with a request to a tab's current URL, " +
    "HttpOnly ones included: { tabId, url, cookies: [{ name, value, domain, path, secure, " +
    "httpOnly, sameSite (None, Lax, Strict or unspecified), session, expires (ISO 8601, null " +
    "for session cookies) }] }. Values longer than 4096 characters are cut with a marker. " +
    "Cookie values are often secrets (sessions): do not repeat them needlessly. Only http(s) " +
    "pages: others fail with NOT_A_WEB_PAGE.",
  method: "cookies.get",
  pageContent: true,
});
