import { assertEquals } from "../../tests/helpers/assert.ts";
import { silentLogger } from "../log/logger.ts";
import { createHandler, matchPath, type Route } from "./handler.ts";
import { HttpError, jsonResponse } from "./http_error.ts";

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
      throw new HttpError(418, "TEAPOT", "short and stout");
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

Deno.test("HttpError becomes its JSON response; other errors a 500 without details", async () => {
  const teapot = await call("/teapot", { headers: AUTH });
  assertEquals([teapot.status, (await teapot.json()).error.code], [418, "TEAPOT"]);
  const boom = await call("/boom", { headers: AUTH });
  assertEquals(boom.status, 500);
  const body = await boom.json();
  assertEquals(body.error.code, "INTERNAL");
  assertEquals(JSON.stringify(body).includes("kaboom"), false);
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
