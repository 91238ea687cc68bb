import { assertEquals } from "../../tests/helpers/assert.ts";
import { silentLogger } from "../log/logger.ts";
import { createHandler, type Route } from "./handler.ts";
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
