import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { checkBearer, checkHost, checkOrigin, parseHostHeader, secretsEqual } from "./guards.ts";

const SECRET = "a".repeat(64);

function req(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:9515/health", { headers });
}

Deno.test("parseHostHeader splits host and port, rejects junk", () => {
  assertEquals(parseHostHeader("127.0.0.1:9515"), { host: "127.0.0.1", port: "9515" });
  assertEquals(parseHostHeader("LocalHost"), { host: "localhost", port: undefined });
  assertEquals(parseHostHeader("[::1]:80"), { host: "[::1]", port: "80" });
  assertEquals(parseHostHeader("a:b:c"), undefined);
  assertEquals(parseHostHeader("127.0.0.1:port"), undefined);
  assertEquals(parseHostHeader(""), undefined);
});

Deno.test("checkHost lets loopback names through on any port and blocks the rest", async () => {
  for (const host of ["127.0.0.1", "127.0.0.1:1", "localhost:9515", "LOCALHOST", "[::1]:9515"]) {
    assertEquals(checkHost(req({ host })), undefined, host);
  }
  for (
    const host of [
      "evil.example",
      "evil.example:9515",
      "127.0.0.2",
      "localhost.evil.com",
      "0.0.0.0",
    ]
  ) {
    const res = checkHost(req({ host }));
    assertEquals(res?.status, 403, host);
    assertEquals((await res!.json()).error.code, "FORBIDDEN_HOST");
  }
});

Deno.test("checkOrigin allows no Origin and extension origins only", () => {
  assertEquals(checkOrigin(req({})), undefined);
  assertEquals(checkOrigin(req({ origin: "chrome-extension://abcdefghijklmnop" })), undefined);
  for (const origin of ["https://evil.example", "http://127.0.0.1:9515", "null", "file://"]) {
    assertEquals(checkOrigin(req({ origin }))?.status, 403, origin);
  }
});

Deno.test("checkBearer: required mode needs the right secret", () => {
  const ok = checkBearer(req({ authorization: `Bearer ${SECRET}` }), SECRET, "required");
  assertEquals(ok, { authenticated: true });
  assertEquals(checkBearer(req({ authorization: `bearer  ${SECRET} ` }), SECRET, "required"), {
    authenticated: true,
  });
  for (const authorization of [undefined, "Bearer nope", `Basic ${SECRET}`, `Bearer ${SECRET}x`]) {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const result = checkBearer(req(headers), SECRET, "required");
    assertEquals(result.authenticated, false);
    assertEquals(result.response?.status, 401);
    assertEquals(result.response?.headers.get("www-authenticate"), 'Bearer realm="hub"');
  }
});

Deno.test("checkBearer: optional mode passes without header, rejects a wrong one", () => {
  assertEquals(checkBearer(req({}), SECRET, "optional"), { authenticated: false });
  assertEquals(
    checkBearer(req({ authorization: "Bearer x" }), SECRET, "optional").response?.status,
    401,
  );
});

Deno.test("checkBearer: with no secret configured every request is authenticated", () => {
  assertEquals(checkBearer(req({}), undefined, "required"), { authenticated: true });
});

Deno.test("secretsEqual compares whole values", () => {
  assert(secretsEqual(SECRET, SECRET));
  assert(!secretsEqual(SECRET, SECRET.slice(1)));
  assert(!secretsEqual(SECRET, "b" + SECRET.slice(1)));
});
