import { assertEquals } from "../../tests/helpers/assert.ts";
import { silentLogger } from "../log/logger.ts";
import { createHandler, matchPath, type Route } from "./handler.ts";
import { jsonResponse } from "./http_error.ts";
import { HubError, hubError, type HubErrorCode } from "../../protocol/errors.ts";

const SECRET = "c".repeat(64);
const AUTH = { authorization: `Bearer ${SECRET}` };
const seen: string[] = [];
const routes: Route[] = [
  {
    method: "GET",
    path: "/open",
    auth: "optional",
    handle: (c) => jsonResponse({ a: c.authenticated }),
  },
  { method: "GET", path: "/closed", auth: "required", handle: () => jsonResponse({ ok: 1 }) },
  {
    method: "POST",
    path: "/limited",
    auth: "required",
    rateLimit: { limit: 2, windowMs: 60_000 },
    handle: () => {
      seen.push("limited");
      return jsonResponse({ ok: 1 });
    },
  },
  {
    method: "GET",
    path: "/teapot",
    auth: "required",
    handle: () => {
      throw new HubError(
        { code: "TEAPOT", message: "short and stout", category: "internal", retryable: false },
        { status: 418 },
      );
    },
  },
  {
    method: "GET",
    path: "/domain/:code",
    auth: "required",
    handle: ({ params }) => {
      throw hubError(params.code as HubErrorCode, "No such plugin.");
    },
  },
  {
    method: "GET",
    path: "/boom",
    auth: "required",
    handle: () => {
      throw new Error("kaboom");
    },
  },
];
const handler = createHandler({ routes, secret: () => SECRET, logger: silentLogger });
const call = (path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  if (!headers.has("host")) headers.set("host", "127.0.0.1:9515");
  return handler(new Request(`http://127.0.0.1:9515${path}`, { ...init, headers }));
};

Deno.test("guards run before routes: Host, then Origin, then auth", async () => {
  const evilHost = await call("/closed", { headers: { host: "evil.example" } });
  assertEquals(evilHost.status, 403);
  const evilOrigin = await call("/closed", { headers: { origin: "https://evil.example" } });
  assertEquals((await evilOrigin.json()).error.code, "FORBIDDEN_ORIGIN");
  assertEquals((await call("/closed")).status, 401);
  assertEquals((await call("/closed", { headers: AUTH })).status, 200);
});

Deno.test("optional auth tells the route whether the caller proved the secret", async () => {
  assertEquals(await (await call("/open")).json(), { a: false });
  assertEquals(await (await call("/open", { headers: AUTH })).json(), { a: true });
});

Deno.test("unknown paths: 401 without a token, JSON 404 with one; wrong method 405", async () => {
  assertEquals((await call("/nope")).status, 401);
  const notFound = await call("/nope", { headers: AUTH });
  assertEquals(notFound.status, 404);
  assertEquals((await notFound.json()).error.code, "NOT_FOUND");
  const wrongMethod = await call("/closed", { method: "DELETE", headers: AUTH });
  assertEquals(wrongMethod.status, 405);
  assertEquals(wrongMethod.headers.get("allow"), "GET");
});

Deno.test("rate limit applies after auth and answers 429 with Retry-After: 60", async () => {
  for (let i = 0; i < 5; i++) {
    assertEquals((await call("/limited", { method: "POST" })).status, 401);
  }
  assertEquals((await call("/limited", { method: "POST", headers: AUTH })).status, 200);
  assertEquals((await call("/limited", { method: "POST", headers: AUTH })).status, 200);
  const limited = await call("/limited", { method: "POST", headers: AUTH });
  assertEquals(limited.status, 429);
  assertEquals(limited.headers.get("retry-after"), "60");
  assertEquals(seen.length, 2);
});

Deno.test("a HubError becomes its JSON response; other errors a 500 without details", async () => {
  const teapot = await call("/teapot", { headers: AUTH });
  assertEquals([teapot.status, (await teapot.json()).error.code], [418, "TEAPOT"]);
  const boom = await call("/boom", { headers: AUTH });
  assertEquals(boom.status, 500);
  const body = await boom.json();
  assertEquals(body.error.code, "INTERNAL");
  assertEquals(JSON.stringify(body).includes("kaboom"), false);
});

Deno.test("a HubError becomes the status of its code's row, with its code and message", async () => {
  const codes = { INVALID_SETTINGS: 400, PLUGIN_NOT_FOUND: 404, RELOAD_FAILED: 500 };
  for (const [code, status] of Object.entries(codes)) {
    const response = await call(`/domain/${code}`, { headers: AUTH });
    assertEquals([response.status, await response.json()], [status, {
      error: { code, message: "No such plugin." },
    }]);
  }
});

// --- matchPath ---

Deno.test("matchPath: a :name segment matches one path segment and is returned", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools/a__b/call"), { name: "a__b" });
  assertEquals(matchPath("/tools/:name", "/tools/browser_list_tabs"), {
    name: "browser_list_tabs",
  });
  assertEquals(matchPath("/a/:x/b/:y", "/a/1/b/2"), { x: "1", y: "2" });
});

Deno.test("matchPath percent-decodes parameter values", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools/a%5F%5Fb/call"), { name: "a__b" });
  assertEquals(matchPath("/tools/:name/call", "/tools/a%2Fb/call"), { name: "a/b" });
  assertEquals(matchPath("/tools/:name/call", "/tools/caf%C3%A9/call"), { name: "café" });
  assertEquals(matchPath("/tools/:name/call", "/tools/a%20b/call"), { name: "a b" });
});

Deno.test("matchPath refuses a path with a different number of segments", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools/a__b"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/tools/a/b/call"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/tools/a__b/call/"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/"), undefined);
});

Deno.test("matchPath refuses an empty parameter segment", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools//call"), undefined);
  assertEquals(matchPath("/tools/:name", "/tools/"), undefined);
});

Deno.test("matchPath refuses fixed segments that differ", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools/a__b/run"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/tool/a__b/call"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/Tools/a__b/call"), undefined);
});

Deno.test("matchPath gives undefined for a bad percent escape instead of throwing", () => {
  assertEquals(matchPath("/tools/:name/call", "/tools/%E0%A4%A/call"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/tools/%/call"), undefined);
  assertEquals(matchPath("/tools/:name/call", "/tools/%C3/call"), undefined);
});

Deno.test("matchPath compares paths without parameters exactly", () => {
  assertEquals(matchPath("/health", "/health"), {});
  assertEquals(matchPath("/health", "/health/"), undefined);
  assertEquals(matchPath("/health", "/Health"), undefined);
  assertEquals(matchPath("/health", "/healthz"), undefined);
  assertEquals(matchPath("/", "/"), {});
  assertEquals(matchPath("/mcp/gateway", "/mcp"), undefined);
});

Deno.test("a refused credential is tried once more against the secret as its file is now", async () => {
  const rotated = "d".repeat(64);
  let looks = 0;
  const h = createHandler({
    routes,
    secret: () => SECRET,
    freshSecret: () => {
      looks++;
      return rotated;
    },
    logger: silentLogger,
  });
  const req = (token: string) =>
    h(
      new Request("http://127.0.0.1:9515/closed", {
        headers: { host: "127.0.0.1", authorization: `Bearer ${token}` },
      }),
    );
  assertEquals((await req(SECRET)).status, 200);
  assertEquals(looks, 0, "an accepted credential costs no look");
  assertEquals((await req(rotated)).status, 200, "a secret rotated a moment ago is accepted");
  assertEquals((await req("e".repeat(64))).status, 401);
  assertEquals(looks, 2);
});

Deno.test("a bad percent escape in a routed path answers 404, not 500", async () => {
  const h = createHandler({
    routes: [{
      method: "GET",
      path: "/tools/:name",
      auth: "required",
      handle: (c) => jsonResponse({ name: c.params.name }),
    }],
    secret: () => SECRET,
    logger: silentLogger,
  });
  const req = (path: string) =>
    h(new Request(`http://127.0.0.1:9515${path}`, { headers: { ...AUTH, host: "127.0.0.1" } }));
  assertEquals(await (await req("/tools/a%2Fb")).json(), { name: "a/b" });
  assertEquals((await req("/tools/%E0%A4%A")).status, 404);
});

/** A request as Deno.serve makes it from a raw Host header: `url` is built from that header. */
function rawHostRequest(host: string, path = "/open"): Request {
  const headers = new Headers({ host });
  return { method: "GET", url: `http://${host}${path}`, headers } as unknown as Request;
}

Deno.test("a malformed Host is 400 before anything parses the URL; one bounded debug line", async () => {
  const lines: { level: string; message: string }[] = [];
  const record = (level: string) => (message: string) => lines.push({ level, message });
  const h = createHandler({
    routes,
    secret: () => SECRET,
    logger: {
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    },
  });
  const hosts = ["a b", "127.0.0.1:99999", "[::1", "localhost:65536", `${"x".repeat(50_000)} y`];
  for (const host of hosts) {
    const res = await h(rawHostRequest(host));
    assertEquals(res.status, 400, host.slice(0, 40));
    const body = await res.text();
    assertEquals(JSON.parse(body).error.code, "BAD_HOST");
    assertEquals(body.length < 500, true, `bounded answer (${body.length})`);
  }
  assertEquals(lines.map((l) => l.level), hosts.map(() => "debug"));
  assertEquals(lines.every((l) => l.message.length < 300 && !l.message.includes("\n")), true);
  assertEquals((await h(rawHostRequest("evil.example"))).status, 403);
});

Deno.test("a request target Deno cannot turn into a URL is a 400, not a 500", async () => {
  const req = {
    method: "GET",
    url: "http://127.0.0.1:9515:x/open",
    headers: new Headers({ host: "127.0.0.1" }),
  } as unknown as Request;
  const res = await handler(req);
  assertEquals(res.status, 400);
  assertEquals((await res.json()).error.code, "BAD_REQUEST");
});

Deno.test("GET on a websocket route without an upgrade is 426 before auth", async () => {
  const h = createHandler({
    routes: [{ method: "GET", path: "/ws", auth: "websocket", handle: () => jsonResponse({}) }],
    secret: () => SECRET,
    logger: silentLogger,
  });
  const ws = (headers: Record<string, string>) =>
    h(new Request("http://127.0.0.1:9515/ws", { headers: { host: "127.0.0.1", ...headers } }));
  const variants: Record<string, string>[] = [
    {},
    AUTH,
    { "sec-websocket-protocol": `hub, ${SECRET}` },
  ];
  for (const headers of variants) {
    const res = await ws(headers);
    assertEquals(res.status, 426);
    assertEquals(res.headers.get("upgrade"), "websocket");
    assertEquals((await res.json()).error.code, "UPGRADE_REQUIRED");
  }
  const noSecret = await ws({ upgrade: "websocket" });
  assertEquals(noSecret.status, 401, "an upgrade still needs the secret");
  await noSecret.body?.cancel();
  const upgraded = await ws({ upgrade: "websocket", "sec-websocket-protocol": `hub, ${SECRET}` });
  assertEquals(upgraded.status, 200);
  await upgraded.body?.cancel();
  const evil = await ws({ origin: "https://evil.example" });
  assertEquals(evil.status, 403, "Origin comes first");
  await evil.body?.cancel();
});
