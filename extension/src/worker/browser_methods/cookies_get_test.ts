/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, withChrome } from "../_test_fixtures.ts";
import type { MethodContext } from "./browser_method.ts";
import { cookiesGet, MAX_COOKIE_VALUE } from "./cookies_get.ts";

const context = {} as MethodContext;

function cookie(fields: Partial<chrome.cookies.Cookie>): chrome.cookies.Cookie {
  return {
    name: "sid",
    value: "abc",
    domain: "example.com",
    hostOnly: true,
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "lax",
    session: false,
    expirationDate: 1_800_000_000.5,
    storeId: "0",
    ...fields,
  } as chrome.cookies.Cookie;
}

function fakeChrome(url: string, cookies: chrome.cookies.Cookie[], asked: unknown[] = []) {
  return {
    tabs: { get: (tabId: number) => Promise.resolve({ id: tabId, url }) },
    cookies: {
      getAllCookieStores: () =>
        Promise.resolve([{ id: "0", tabIds: [1] }, { id: "1", tabIds: [5] }]),
      getAll: (details: { name?: string }) => {
        asked.push(details);
        return Promise.resolve(cookies.filter((c) => !details.name || c.name === details.name));
      },
    },
  };
}

Deno.test("the tab URL's cookies, described compactly, from the tab's cookie store", async () => {
  const asked: unknown[] = [];
  const cookies = [
    cookie({}),
    cookie({
      name: "theme",
      value: "dark",
      httpOnly: false,
      secure: false,
      sameSite: "no_restriction",
      session: true,
      expirationDate: undefined,
    }),
  ];
  await withChrome(fakeChrome("https://example.com/app", cookies, asked), async () => {
    const value = await cookiesGet({ tabId: 5 }, context);
    assertEquals(value, {
      tabId: 5,
      url: "https://example.com/app",
      cookies: [
        {
          name: "sid",
          value: "abc",
          domain: "example.com",
          path: "/",
          secure: true,
          httpOnly: true,
          sameSite: "Lax",
          session: false,
          expires: "2027-01-15T08:00:00.500Z",
        },
        {
          name: "theme",
          value: "dark",
          domain: "example.com",
          path: "/",
          secure: false,
          httpOnly: false,
          sameSite: "None",
          session: true,
          expires: null,
        },
      ],
    });
    assertEquals(asked, [{ url: "https://example.com/app", storeId: "1" }]);
    const named = await cookiesGet({ tabId: 5, name: "theme" }, context) as { cookies: unknown[] };
    assertEquals(named.cookies.length, 1);
    assertEquals(asked[1], { url: "https://example.com/app", name: "theme", storeId: "1" });
  });
});

Deno.test("long values are cut with a marker", async () => {
  const long = "v".repeat(MAX_COOKIE_VALUE + 10);
  await withChrome(fakeChrome("http://example.com/", [cookie({ value: long })]), async () => {
    const value = await cookiesGet({ tabId: 1 }, context) as { cookies: { value: string }[] };
    const text = value.cookies[0].value;
    assertEquals(text.slice(0, MAX_COOKIE_VALUE), long.slice(0, MAX_COOKIE_VALUE));
    assertMatch(text, /…\[truncated: showed 4096 of 4106 characters\./);
  });
});

Deno.test("a tab without a web page is NOT_A_WEB_PAGE", async () => {
  for (const url of ["about:blank", "chrome://settings/", "file:///etc/hosts", ""]) {
    await withChrome(fakeChrome(url, []), async () => {
      const failed = await failureOf(cookiesGet({ tabId: 1 }, context));
      assertEquals([failed.payload.code, failed.payload.category], [
        "NOT_A_WEB_PAGE",
        "validation",
      ]);
      assertMatch(failed.payload.message, /Navigate the tab to an http\(s\) site/);
    });
  }
});
