/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { HubError } from "../../../protocol/errors.ts";
import {
  MAX_BODY_CHARS,
  MAX_REQUESTS_PER_TAB,
  MAX_URL_CHARS,
} from "../../../protocol/browser_methods/network.ts";
import { createNetworkLog, HEADERS_KEPT, keepHeaders, MAX_TABS } from "./network_log.ts";
import { type BodySession, type BodySessions, bounded } from "./network_bodies.ts";

const T0 = Date.UTC(2026, 10, 29, 3, 0, 0);
const ALL = { limit: 500 };

function request(id: string, url: string, fields: Record<string, unknown> = {}) {
  return {
    requestId: id,
    tabId: 7,
    frameId: 0,
    url,
    method: "GET",
    type: "xmlhttprequest",
    timeStamp: T0,
    ...fields,
  };
}

/** A request that starts at `at` and completes with `status` 20 ms later. */
function fetched(
  log: ReturnType<typeof createNetworkLog>,
  id: string,
  url: string,
  status = 200,
  at = T0,
) {
  log.events.beforeRequest(request(id, url, { timeStamp: at }));
  log.events.completed(request(id, url, {
    timeStamp: at + 20,
    statusCode: status,
    statusLine: `HTTP/1.1 ${status} Whatever`,
    fromCache: false,
    responseHeaders: [{ name: "Content-Length", value: "12" }],
  }));
}

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

/** The HubError `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HubError) return error;
    throw error;
  }
  throw new Error("it did not reject");
}

/** Sessions that record commands and answer getResponseBody from `bodies` (by CDP id). */
function fakeSessions(bodies: Record<string, { body: string; base64Encoded: boolean }>) {
  const hooks: ((s: BodySession, id: string | undefined) => Promise<void>)[] = [];
  const listeners: ((
    e: { tabId: number; sessionId?: string; method: string; params: Record<string, unknown> },
  ) => void)[] = [];
  const commands: string[] = [];
  let attached = false;
  const session: BodySession = {
    tabId: 7,
    // deno-lint-ignore require-await
    async send<T>(method: string, params?: Record<string, unknown>) {
      commands.push(method);
      if (method === "Network.getResponseBody") {
        const body = bodies[String(params?.requestId)];
        if (!body) throw new Error("No resource with given identifier found");
        return body as T;
      }
      return {} as T;
    },
  };
  const sessions: BodySessions = {
    async session() {
      if (!attached) {
        attached = true;
        for (const hook of hooks) await hook(session, undefined);
      }
      return session;
    },
    current: () => (attached ? session : undefined),
    onSession: (hook) => void hooks.push(hook),
    onEvent: (listener) => (listeners.push(listener), () => {}),
    onDetach: () => () => {},
  };
  const emit = (requestId: string, url: string, wallMs: number) =>
    listeners.forEach((l) =>
      l({
        tabId: 7,
        method: "Network.requestWillBeSent",
        params: { requestId, request: { url, method: "GET" }, wallTime: wallMs / 1000 },
      })
    );
  return { sessions, emit, commands };
}

Deno.test("body: read through the debugger when it saw the request; else BODY_UNAVAILABLE says why", async () => {
  let clock = T0;
  const log = createNetworkLog(() => clock);
  const fake = fakeSessions({ "cdp.1": { body: '{"ok":true}', base64Encoded: false } });
  log.watch(fake.sessions);

  // Made before hub attached: unavailable, and the debugger is attached now.
  fetched(log, "1", "https://a.test/api/early", 200, T0);
  clock = T0 + 1_000;
  const early = log.get(7, "1")!;
  const error = await rejection(log.body(fake.sessions, 7, early));
  assertEquals(error.payload.code, "BODY_UNAVAILABLE");
  assertMatch(error.message, /not attached to tab 7 when request 1 ran.*repeat/s);
  assert(fake.commands.includes("Network.enable"));

  // Made while attached: matched by URL, method and time.
  fetched(log, "2", "https://a.test/api/items", 200, T0 + 2_000);
  fake.emit("cdp.1", "https://a.test/api/items", T0 + 2_001);
  const body = await log.body(fake.sessions, 7, log.get(7, "2")!);
  assertEquals(body, { bytes: 11, encoding: "text", data: '{"ok":true}', truncated: false });

  // Failed requests have no body.
  log.events.beforeRequest(request("3", "https://a.test/x", { timeStamp: T0 + 3_000 }));
  log.events.errorOccurred(request("3", "https://a.test/x", { error: "net::ERR_FAILED" }));
  const failed = await rejection(log.body(fake.sessions, 7, log.get(7, "3")!));
  assertMatch(failed.message, /failed \(net::ERR_FAILED\)/);

  // Chromium lost it.
  fetched(log, "4", "https://a.test/api/gone", 200, T0 + 4_000);
  fake.emit("cdp.9", "https://a.test/api/gone", T0 + 4_000);
  const gone = await rejection(log.body(fake.sessions, 7, log.get(7, "4")!));
  assertMatch(gone.message, /no longer holds the body/);
});

Deno.test("body bounds: text cut at MAX_BODY_CHARS, binary as base64, base64 text decoded", () => {
  const long = bounded("z".repeat(MAX_BODY_CHARS + 5), false, "text/plain");
  assertEquals([long.data.length, long.truncated, long.bytes], [
    MAX_BODY_CHARS,
    true,
    MAX_BODY_CHARS + 5,
  ]);
  const png = bounded(btoa("\x89PNG"), true, "image/png");
  assertEquals([png.encoding, png.data, png.bytes], ["base64", btoa("\x89PNG"), 4]);
  const utf8 = bounded(
    btoa(String.fromCharCode(...new TextEncoder().encode("héllo"))),
    true,
    "application/json",
  );
  assertEquals([utf8.encoding, utf8.data, utf8.bytes], ["text", "héllo", 6]);
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

Deno.test("body: a request whose URL had a secret is still matched with the debugger's", async () => {
  let clock = T0;
  const log = createNetworkLog(() => clock);
  const fake = fakeSessions({ "cdp.5": { body: "ok", base64Encoded: false } });
  log.watch(fake.sessions);
  await fake.sessions.session(7);
  fetched(log, "5", "https://a.test/api?token=t0k", 200, T0 + 2_000);
  fake.emit("cdp.5", "https://a.test/api?token=t0k", T0 + 2_001);
  clock = T0 + 3_000;
  const body = await log.body(fake.sessions, 7, log.get(7, "5")!);
  assertEquals(body.data, "ok");
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
