/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { MAX_REQUESTS_PER_TAB, MAX_URL_CHARS } from "../../../protocol/browser_methods/network.ts";
import { createNetworkLog, HEADERS_KEPT, keepHeaders, MAX_TABS } from "./network_log.ts";
import { fetched, request, T0 } from "./_fake_network.ts";

const ALL = { limit: 500 };

Deno.test("a request's life: listed with status, bytes, duration and start; in flight has nulls", () => {
  const log = createNetworkLog(() => T0);
  fetched(log, "1", "https://a.test/api/ok");
  log.events.beforeRequest(request("2", "https://a.test/api/slow", { timeStamp: T0 + 5 }));
  const { requests, total, truncated } = log.list(7, ALL);
  assertEquals([total, truncated], [2, false]);
  assertEquals(requests[0], {
    requestId: "1",
    url: "https://a.test/api/ok",
    method: "GET",
    resourceType: "xmlhttprequest",
    status: 200,
    failed: false,
    bytes: 12,
    durationMs: 20,
    startedAt: new Date(T0).toISOString(),
  });
  assertEquals([requests[1].status, requests[1].durationMs], [null, null]);
  assertEquals(log.list(8, ALL), { requests: [], total: 0, truncated: false });
});

Deno.test("a failed request says why; failedOnly lists failures and 4xx/5xx", () => {
  const log = createNetworkLog(() => T0);
  fetched(log, "1", "https://a.test/ok", 200);
  fetched(log, "2", "https://a.test/missing", 404);
  fetched(log, "3", "https://a.test/boom", 500);
  log.events.beforeRequest(request("4", "http://127.0.0.1:9/"));
  log.events.errorOccurred(request("4", "http://127.0.0.1:9/", {
    timeStamp: T0 + 3,
    error: "net::ERR_CONNECTION_REFUSED",
  }));
  const failed = log.list(7, { ...ALL, failedOnly: true }).requests;
  assertEquals(failed.map((r) => [r.requestId, r.status, r.failed]), [
    ["2", 404, false],
    ["3", 500, false],
    ["4", null, true],
  ]);
  assertEquals(failed[2].errorText, "net::ERR_CONNECTION_REFUSED");
  assertEquals(failed[2].durationMs, 3);
});

Deno.test("filters: urlIncludes (any case), resourceTypes, statuses; limit keeps the newest", () => {
  const log = createNetworkLog(() => T0);
  fetched(log, "1", "https://a.test/API/items", 200);
  fetched(log, "2", "https://a.test/api/me", 401);
  log.events.beforeRequest(request("3", "https://a.test/app.js", { type: "script" }));
  log.events.completed(request("3", "https://a.test/app.js", { statusCode: 200, type: "script" }));
  const ids = (filter: Record<string, unknown>) =>
    log.list(7, { ...ALL, ...filter }).requests.map((r) => r.requestId);
  assertEquals(ids({ urlIncludes: "/api/" }), ["1", "2"]);
  assertEquals(ids({ resourceTypes: ["script"] }), ["3"]);
  assertEquals(ids({ statuses: [401, 500] }), ["2"]);
  assertEquals(ids({ urlIncludes: "/api/", statuses: [200] }), ["1"]);
  const limited = log.list(7, { limit: 2 });
  assertEquals(limited.requests.map((r) => r.requestId), ["2", "3"]);
  assertEquals([limited.total, limited.truncated], [3, true]);
});

Deno.test("a redirect: each hop is its own entry, the next one <id>-1", () => {
  const log = createNetworkLog(() => T0);
  log.events.beforeRequest(request("5", "https://a.test/login", { type: "main_frame" }));
  log.events.beforeRedirect(request("5", "https://a.test/login", {
    type: "main_frame",
    statusCode: 303,
    redirectUrl: "https://a.test/",
    timeStamp: T0 + 4,
  }));
  log.events.beforeRequest(
    request("5", "https://a.test/", { type: "main_frame", timeStamp: T0 + 5 }),
  );
  log.events.completed(request("5", "https://a.test/", { statusCode: 200, timeStamp: T0 + 9 }));
  const { requests } = log.list(7, ALL);
  assertEquals(requests.map((r) => [r.requestId, r.url, r.status]), [
    ["5", "https://a.test/login", 303],
    ["5-1", "https://a.test/", 200],
  ]);
  assertEquals(log.get(7, "5")?.redirectUrl, "https://a.test/");
});

Deno.test("a new top document restarts the tab's log at its main_frame request", () => {
  const log = createNetworkLog(() => T0);
  fetched(log, "1", "https://a.test/old", 200, T0);
  log.events.beforeRequest(
    request("2", "https://b.test/", { type: "main_frame", timeStamp: T0 + 100 }),
  );
  // The old page still fetches while the next one loads: started before the navigation, gone.
  fetched(log, "3", "https://a.test/late", 200, T0 + 50);
  log.events.committed(7, T0 + 200);
  fetched(log, "4", "https://b.test/app.js", 200, T0 + 300);
  assertEquals(log.list(7, ALL).requests.map((r) => r.requestId), ["2", "4"]);
  // A navigation that redirects keeps its first hop with the page it led to.
  log.events.beforeRequest(
    request("6", "https://b.test/go", { type: "main_frame", timeStamp: T0 + 310 }),
  );
  log.events.beforeRedirect(request("6", "https://b.test/go", {
    type: "main_frame",
    statusCode: 302,
    redirectUrl: "https://c.test/",
    timeStamp: T0 + 312,
  }));
  log.events.beforeRequest(
    request("6", "https://c.test/", { type: "main_frame", timeStamp: T0 + 313 }),
  );
  log.events.committed(7, T0 + 320);
  assertEquals(log.list(7, ALL).requests.map((r) => r.requestId), ["6", "6-1"]);
  // A commit without a request of its own (history, about:blank) starts at the commit.
  log.events.completed(request("6", "https://c.test/", { statusCode: 200, timeStamp: T0 + 330 }));
  log.events.committed(7, T0 + 400);
  assertEquals(log.list(7, ALL).total, 0);
});

Deno.test("bounds: requests per tab, tabs kept, URL length, headers of old requests", () => {
  let clock = T0;
  const log = createNetworkLog(() => clock++);
  for (let i = 0; i < MAX_REQUESTS_PER_TAB + 10; i++) {
    log.events.beforeRequest(request(String(i), `https://a.test/${i}`));
    log.events.sendHeaders(request(String(i), `https://a.test/${i}`, {
      requestHeaders: [{ name: "Accept", value: "*/*" }],
    }));
  }
  const all = log.list(7, ALL);
  assertEquals([all.total, all.truncated, all.requests[0].requestId], [
    MAX_REQUESTS_PER_TAB,
    true,
    "10",
  ]);
  const newest = log.get(7, String(MAX_REQUESTS_PER_TAB + 9))!;
  assertEquals(newest.requestHeaders, [{ name: "Accept", value: "*/*" }]);
  const old = log.get(7, String(MAX_REQUESTS_PER_TAB + 9 - HEADERS_KEPT))!;
  assertEquals(old.requestHeaders, []);
  assertMatch(old.headersNote!, /newest 100 requests/);

  for (let tab = 100; tab < 100 + MAX_TABS; tab++) {
    log.events.beforeRequest(request("x", "https://a.test/", { tabId: tab }));
  }
  assertEquals(log.list(7, ALL).total, 0, "the least recently active tab's log went first");
  assertEquals(log.list(100 + MAX_TABS - 1, ALL).total, 1);

  log.events.beforeRequest(
    request("long", `https://a.test/?q=${"x".repeat(5_000)}`, { tabId: 101 }),
  );
  const url = log.get(101, "long")!.url;
  assert(url.length < MAX_URL_CHARS + 40, `${url.length}`);
  assertMatch(url, /…\[cut: 5018 characters\]$/);
  log.events.removed(101);
  assertEquals(log.list(101, ALL).total, 0);
});

Deno.test("headers: secrets redacted to their length, long values and many headers cut", () => {
  const { headers, cut } = keepHeaders([
    { name: "Authorization", value: "Bearer abc" },
    { name: "set-cookie", value: "sid=1" },
    { name: "X-Long", value: "y".repeat(1_500) },
  ]);
  assertEquals(headers[0], { name: "Authorization", value: "[redacted: 10 characters]" });
  assertEquals(headers[1], { name: "set-cookie", value: "[redacted: 5 characters]" });
  assertMatch(headers[2].value, /^y{1000}…\[cut: 1500 characters\]$/);
  assert(cut);
  const many = keepHeaders(Array.from({ length: 200 }, (_, i) => ({ name: `h${i}`, value: "v" })));
  assertEquals([many.headers.length, many.cut], [60, true]);
  assertEquals(keepHeaders([{ name: "a", value: "b" }]), {
    headers: [{ name: "a", value: "b" }],
    cut: false,
  });
});

Deno.test("get: one request's detail with both directions' headers", () => {
  const log = createNetworkLog(() => T0);
  log.events.beforeRequest(request("9", "https://a.test/api", { method: "POST" }));
  log.events.sendHeaders(request("9", "https://a.test/api", {
    requestHeaders: [{ name: "Content-Type", value: "application/json" }],
  }));
  log.events.completed(request("9", "https://a.test/api", {
    statusCode: 201,
    statusLine: "HTTP/1.1 201 Created",
    ip: "127.0.0.1",
    fromCache: false,
    timeStamp: T0 + 7,
    responseHeaders: [{ name: "Content-Type", value: "application/json" }],
  }));
  const detail = log.get(7, "9")!;
  assertEquals(detail.method, "POST");
  assertEquals([detail.status, detail.statusText, detail.remoteAddress], [
    201,
    "Created",
    "127.0.0.1",
  ]);
  assertEquals(detail.requestHeaders, [{ name: "Content-Type", value: "application/json" }]);
  assertEquals(detail.responseHeaders.length, 1);
  assertEquals(log.get(7, "10"), undefined);
});

Deno.test("secrets in URLs: the list, redirectUrl and Location hold them redacted; urlIncludes sees the redacted URL", () => {
  const log = createNetworkLog(() => T0);
  log.events.beforeRequest(
    request("20", "https://idp.test/cb?code=c0de&state=s1", { type: "main_frame" }),
  );
  log.events.sendHeaders(request("20", "https://idp.test/cb?code=c0de&state=s1", {
    requestHeaders: [
      { name: "X-Goog-Api-Key", value: "AIza-42" },
      { name: "Referer", value: "https://idp.test/login?password=pw" },
      { name: "Accept", value: "text/html" },
    ],
  }));
  log.events.beforeRedirect(request("20", "https://idp.test/cb?code=c0de&state=s1", {
    type: "main_frame",
    statusCode: 302,
    redirectUrl: "https://user:pw@app.test/home?access_token=Zq9x",
    responseHeaders: [{
      name: "Location",
      value: "https://user:pw@app.test/home?access_token=Zq9x",
    }],
    timeStamp: T0 + 3,
  }));
  const [hop] = log.list(7, ALL).requests;
  assertEquals(hop.url, "https://idp.test/cb?code=[redacted: 4 characters]&state=s1");
  const detail = log.get(7, "20")!;
  const home =
    "https://[redacted: 7 characters]@app.test/home?access_token=[redacted: 4 characters]";
  assertEquals(detail.redirectUrl, home);
  assertEquals(detail.responseHeaders, [{ name: "Location", value: home }]);
  assertEquals(detail.requestHeaders, [
    { name: "X-Goog-Api-Key", value: "[redacted: 7 characters]" },
    { name: "Referer", value: "https://idp.test/login?password=[redacted: 2 characters]" },
    { name: "Accept", value: "text/html" },
  ]);
  const text = JSON.stringify([log.list(7, ALL), detail]);
  for (const secret of ["c0de", "AIza", "Zq9x", "user:pw", "=pw"]) {
    assert(!text.includes(secret), secret);
  }
  const ids = (urlIncludes: string) =>
    log.list(7, { ...ALL, urlIncludes }).requests.map((r) => r.requestId);
  assertEquals(ids("/cb?code="), ["20"]);
  assertEquals(ids("state=s1"), ["20"]);
  assertEquals(ids("code=c0de"), [], "the filter sees the redacted URL");
});

Deno.test("a tab whose log went for the 20-tab bound says so, until its next page", () => {
  let clock = T0;
  const log = createNetworkLog(() => clock++);
  fetched(log, "1", "https://a.test/x");
  for (let tab = 100; tab < 100 + MAX_TABS; tab++) {
    log.events.beforeRequest(request("x", "https://a.test/", { tabId: tab }));
  }
  const gone = log.list(7, ALL);
  assertEquals([gone.requests, gone.total, gone.truncated], [[], 0, true]);
  assertMatch(gone.note!, /earlier requests were dropped.*at most 20 tabs/s);
  assertEquals(log.list(100 + MAX_TABS - 1, ALL).note, undefined);
  assertEquals(log.list(12345, ALL), { requests: [], total: 0, truncated: false });

  // Recording again: the new requests are listed, still saying the earlier ones went.
  fetched(log, "2", "https://a.test/y", 200, T0 + 1_000);
  const again = log.list(7, ALL);
  assertEquals([again.requests.map((r) => r.requestId), again.truncated], [["2"], true]);
  assertMatch(again.note!, /dropped/);

  // A new page starts a complete list.
  log.events.beforeRequest(
    request("3", "https://a.test/", { type: "main_frame", timeStamp: T0 + 2_000 }),
  );
  log.events.committed(7, T0 + 2_010);
  const fresh = log.list(7, ALL);
  assertEquals([fresh.requests.map((r) => r.requestId), fresh.truncated, fresh.note], [
    ["3"],
    false,
    undefined,
  ]);

  // A closed tab is forgotten.
  for (let tab = 200; tab < 200 + MAX_TABS; tab++) {
    log.events.beforeRequest(request("x", "https://a.test/", { tabId: tab }));
  }
  assertMatch(log.list(7, ALL).note!, /dropped/);
  log.events.removed(7);
  assertEquals(log.list(7, ALL).note, undefined);
});
