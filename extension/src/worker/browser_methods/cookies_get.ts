/**
 * `cookies.get` (browser_get_cookies): the cookies the browser would send with a request to the
 * tab's current URL, HttpOnly ones included (page scripts cannot see those), from the tab's own
 * cookie store (an incognito tab has its own). Values longer than MAX_COOKIE_VALUE are cut.
 */
import { type BrowserMethod, webPageTab } from "./browser_method.ts";
import { capText } from "../../../../protocol/text_cap.ts";

/** The most characters of a cookie's value returned. */
export const MAX_COOKIE_VALUE = 4096;

const SAME_SITE: Record<string, string> = {
  no_restriction: "None",
  lax: "Lax",
  strict: "Strict",
  unspecified: "unspecified",
};

export const cookiesGet: BrowserMethod<"cookies.get"> = async (input) => {
  const { tabId, url } = await webPageTab(
    input,
    ", so it has no cookies. Navigate the tab to an http(s) site first.",
  );
  const stores = await chrome.cookies.getAllCookieStores();
  const storeId = stores.find((store) => store.tabIds.includes(tabId))?.id;
  const cookies = await chrome.cookies.getAll({
    url,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(storeId ? { storeId } : {}),
  });
  return { tabId, url, cookies: cookies.map(describeCookie) };
};

export function describeCookie(cookie: chrome.cookies.Cookie) {
  return {
    name: cookie.name,
    value: capText(
      cookie.value,
      MAX_COOKIE_VALUE,
      "If the cookie is not HttpOnly, read it whole with browser_execute_script " +
        "(document.cookie).",
    ).text,
    domain: cookie.domain,
    path: cookie.path,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: SAME_SITE[cookie.sameSite] ?? cookie.sameSite,
    session: cookie.session,
    expires: cookie.session || cookie.expirationDate === undefined
      ? null
      : new Date(cookie.expirationDate * 1000).toISOString(),
  };
}
