/**
 * browser_network_requests and browser_network_request end to end: real hub, real Chromium with
 * the installed extension, the test web app's `/net/page` (network_pages.ts), whose fetches get
 * 200, 404, 500, a JSON body, and one that fails (nothing listens on its port).
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { NET_DATA, NET_SECRET } from "../fixtures/web_app/network_pages.ts";
import type { NetworkEntry } from "../../protocol/browser_methods/network.ts";

/** A port nothing listens on (taken, then let go). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function requests(e2e: E2E, tabId: number, args: Record<string, unknown> = {}) {
  return callTool(e2e, "browser_network_requests", { tabId, ...args });
}

/** The tab's requests once `ready` says they are all there. */
async function listed(
  e2e: E2E,
  tabId: number,
  ready: (list: NetworkEntry[]) => boolean,
  args: Record<string, unknown> = {},
) {
  let value: { tabId: number; requests: NetworkEntry[]; total: number; truncated: boolean };
  await eventually(async () => {
    value = ok(await requests(e2e, tabId, args), "network requests");
    return ready(value.requests);
  }, () => `requests: ${JSON.stringify(value).slice(0, 3000)}`);
  return value!;
}

const path = (entry: NetworkEntry) => new URL(entry.url).pathname;
const done = (list: NetworkEntry[], ...paths: string[]) =>
  paths.every((p) => list.some((e) => path(e) === p && e.durationMs !== null));

e2eTest(import.meta.url, "network requests of a tab in a real Chromium", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const page: Page = await e2e.open("/net/page");
  const tabId = await tabIdOf(e2e, page);
  const failPort = closedPort();
  const answers = await page.evaluate(`load(${failPort})`) as unknown[];
  assertEquals(answers.slice(0, 4), [200, 404, 500, 200]);
  assertMatch(String(answers[4]), /TypeError/);

  await t.step("every request with its status; the failed one says why", async () => {
    const value = await listed(
      e2e,
      tabId,
      (list) =>
        done(list, "/net/page", "/api/status/200", "/api/status/404", "/api/status/500") &&
        list.some((e) => e.failed),
    );
    assertEquals(value.tabId, tabId);
    const byPath = (p: string) => value.requests.find((e) => path(e) === p)!;
    assertEquals(byPath("/net/page").resourceType, "main_frame");
    assertEquals(byPath("/net/page").status, 200);
    for (const status of [200, 404, 500]) {
      const entry = byPath(`/api/status/${status}`);
      assertEquals(
        [entry.status, entry.failed, entry.method, entry.resourceType],
        [status, false, "GET", "xmlhttprequest"],
      );
      assert(entry.durationMs! >= 0 && Date.parse(entry.startedAt) > Date.now() - 60_000);
      assertMatch(entry.requestId, /^\d+$/);
    }
    const broken = value.requests.find((e) => e.failed)!;
    assertEquals([broken.url, broken.status], [`http://127.0.0.1:${failPort}/`, null]);
    assertMatch(broken.errorText!, /^net::ERR_/);
    assertEquals(value.total, value.requests.length);
    assertEquals(value.truncated, false);
  });

  await t.step("filters: statuses, failedOnly, urlIncludes, resourceTypes, limit", async () => {
    // Chromium's own /favicon.ico request counts for the tab too (the app answers 404).
    const api = { urlIncludes: "/api/status" };
    const byStatus = ok(await requests(e2e, tabId, { ...api, statuses: [404, 500] }), "statuses");
    assertEquals(byStatus.requests.map(path), ["/api/status/404", "/api/status/500"]);
    const bad = ok(await requests(e2e, tabId, { failedOnly: true }), "failedOnly");
    const notFavicon = bad.requests.filter((e: NetworkEntry) => path(e) !== "/favicon.ico");
    assertEquals(notFavicon.map((e: NetworkEntry) => e.status), [404, 500, null]);
    const upper = ok(await requests(e2e, tabId, { urlIncludes: "/API/status" }), "urlIncludes");
    assertEquals(upper.total, 3);
    const pages = ok(await requests(e2e, tabId, { resourceTypes: ["main_frame"] }), "types");
    assertEquals(pages.requests.map(path), ["/net/page"]);
    const last = ok(await requests(e2e, tabId, { limit: 1 }), "limit");
    assertEquals([last.requests.length, last.truncated, last.total > 1], [1, true, true]);
    failed(await requests(e2e, tabId, { resourceTypes: ["fetch"] }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
    });
  });

  await t.step("one request's headers, the secret redacted", async () => {
    const value = await listed(e2e, tabId, (list) => done(list, "/net/data"));
    const data = value.requests.find((e) => path(e) === "/net/data")!;
    const detail = ok(
      await callTool(e2e, "browser_network_request", { tabId, requestId: data.requestId }),
      "network request",
    );
    assertEquals(detail.request.requestId, data.requestId);
    assertEquals(detail.body, undefined);
    const header = (name: string) =>
      detail.request.responseHeaders.find((h: { name: string }) => h.name.toLowerCase() === name);
    assertMatch(header("content-type").value, /application\/json/);
    assertEquals(header("x-api-key").value, `[redacted: ${NET_SECRET.length} characters]`);
    assert(!JSON.stringify(detail).includes(NET_SECRET));
    assert(detail.request.requestHeaders.length > 0);
    failed(await callTool(e2e, "browser_network_request", { tabId, requestId: "999999999" }), {
      status: 422,
      code: "REQUEST_NOT_FOUND",
    });
  });

  await t.step("secrets in a URL and a request header are held redacted", async () => {
    const token = "tok-" + crypto.randomUUID();
    await page.evaluate(
      `fetch("/api/status/200?access_token=${token}&page=2", ` +
        `{ headers: { "X-Goog-Api-Key": "${token}" } }).then((r) => r.text())`,
    );
    const value = await listed(
      e2e,
      tabId,
      (list) => list.some((e) => e.durationMs !== null),
      { urlIncludes: "access_token=" },
    );
    assertEquals(value.requests.length, 1);
    const entry = value.requests[0];
    assertEquals(
      entry.url,
      new URL("/api/status/200", e2e.app.url).href +
        `?access_token=[redacted: ${token.length} characters]&page=2`,
    );
    const detail = ok(
      await callTool(e2e, "browser_network_request", { tabId, requestId: entry.requestId }),
      "secret request",
    );
    const sent = detail.request.requestHeaders.find((h: { name: string }) =>
      h.name.toLowerCase() === "x-goog-api-key"
    );
    assertEquals(sent?.value, `[redacted: ${token.length} characters]`);
    assert(!JSON.stringify([value, detail]).includes(token));
  });

  await t.step(
    "a body: unavailable for a request made before the debugger, then read",
    async () => {
      const before = (await listed(e2e, tabId, (list) => done(list, "/net/data"))).requests
        .find((e) => path(e) === "/net/data")!;
      const early = callTool(e2e, "browser_network_request", {
        tabId,
        requestId: before.requestId,
        includeBody: true,
      });
      failed(await early, { status: 422, code: "BODY_UNAVAILABLE", message: /not attached/ });
      // The debugger is attached now: the same fetch again is recorded with its body.
      await page.evaluate(`fetch("/net/data").then((r) => r.text())`);
      const again = (await listed(
        e2e,
        tabId,
        (list) => list.filter((e) => path(e) === "/net/data" && e.durationMs !== null).length === 2,
      )).requests.filter((e) => path(e) === "/net/data")[1];
      const read = ok(
        await callTool(e2e, "browser_network_request", {
          tabId,
          requestId: again.requestId,
          includeBody: true,
        }),
        "body",
      );
      assertEquals(read.body.encoding, "text");
      assertEquals(JSON.parse(read.body.data), NET_DATA);
      assertEquals([read.body.truncated, read.body.mimeType], [false, "application/json"]);
      assertEquals(read.body.bytes, JSON.stringify(NET_DATA).length);
    },
  );

  await t.step("a new page forgets the old page's requests", async () => {
    await page.reload();
    const value = await listed(e2e, tabId, (list) => done(list, "/net/page"));
    const paths = value.requests.map(path).filter((p) => p !== "/favicon.ico");
    assertEquals(paths, ["/net/page"]);
  });
  await t.step("a redirect: the 303 and the page it led to, one id apart", async () => {
    await page.goto(new URL("/login", e2e.app.url).href); // 303 to /
    const value = await listed(
      e2e,
      tabId,
      (list) => list.filter((e) => e.durationMs !== null).length >= 2,
      { resourceTypes: ["main_frame"] },
    );
    const [first, next] = value.requests;
    assertEquals([path(first), first.status, path(next), next.status], ["/login", 303, "/", 200]);
    assertEquals(next.requestId, `${first.requestId}-1`);
    const detail = ok(
      await callTool(e2e, "browser_network_request", { tabId, requestId: first.requestId }),
      "redirect",
    );
    assertEquals(detail.request.redirectUrl, new URL("/", e2e.app.url).href);
  });
  await page.close();
});
