import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import {
  type AuthMode,
  checkAuth,
  checkHost,
  checkOrigin,
  checkWebSocketUpgrade,
  parseHostHeader,
} from "./guards.ts";
import { credentialsOf, WS_PROTOCOL } from "./credentials.ts";
import { constantTimeEqual } from "../../protocol/challenge.ts";

const SECRET = "a".repeat(64);

/** What the handler does for one request: read its credentials once, then check them. */
function authOf(req: Request, secret: string | undefined, mode: AuthMode) {
  return checkAuth(credentialsOf(req), secret, mode);
}

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

Deno.test("checkAuth: required mode needs the right secret", () => {
  const ok = authOf(req({ authorization: `Bearer ${SECRET}` }), SECRET, "required");
  assertEquals(ok, { authenticated: true });
  assertEquals(authOf(req({ authorization: `bearer  ${SECRET} ` }), SECRET, "required"), {
    authenticated: true,
  });
  for (const authorization of [undefined, "Bearer nope", `Basic ${SECRET}`, `Bearer ${SECRET}x`]) {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const result = authOf(req(headers), SECRET, "required");
    assertEquals(result.authenticated, false);
    assertEquals(result.response?.status, 401);
    assertEquals(result.response?.headers.get("www-authenticate"), 'Bearer realm="hub"');
  }
});

Deno.test("checkAuth: optional mode passes without header, rejects a wrong one", () => {
  assertEquals(authOf(req({}), SECRET, "optional"), { authenticated: false });
  assertEquals(
    authOf(req({ authorization: "Bearer x" }), SECRET, "optional").response?.status,
    401,
  );
});

Deno.test("checkAuth: with no secret configured every request is authenticated", () => {
  assertEquals(authOf(req({}), undefined, "required"), { authenticated: true });
});

Deno.test("constantTimeEqual (the secret comparison) compares whole values", () => {
  assert(constantTimeEqual(SECRET, SECRET));
  assert(!constantTimeEqual(SECRET, SECRET.slice(1)));
  assert(!constantTimeEqual(SECRET, "b" + SECRET.slice(1)));
  assert(!constantTimeEqual(SECRET, SECRET.slice(0, -1) + "b"));
  assert(!constantTimeEqual(SECRET, SECRET + "a"));
  assert(!constantTimeEqual(SECRET + "\0", SECRET), "a trailing NUL is not the end");
  assert(!constantTimeEqual("", SECRET));
  assert(!constantTimeEqual(SECRET, ""));
  assert(constantTimeEqual("", ""));
  assert(constantTimeEqual("ключ-é", "ключ-é"));
  assert(!constantTimeEqual("ключ-é", "ключ-e"));
});

// --- checkAuth in websocket mode ---

/** A /ws upgrade request offering the given subprotocols (no header when undefined). */
function wsReq(protocols?: string): Request {
  const headers: Record<string, string> = { upgrade: "websocket" };
  if (protocols !== undefined) headers["sec-websocket-protocol"] = protocols;
  return new Request("http://127.0.0.1:9515/ws", { headers });
}

/** Asserts a 401 JSON refusal that does not echo what the client offered. */
async function assertRefused(result: ReturnType<typeof checkAuth>, offered = "") {
  assertEquals(result.authenticated, false);
  assert(result.response, "a refusal carries a response");
  assertEquals(result.response.status, 401);
  const body = await result.response.json();
  assertEquals(body.error.code, "UNAUTHORIZED");
  if (offered) assertEquals(JSON.stringify(body).includes(offered), false, "offer not echoed");
  return body.error.message as string;
}

Deno.test("checkAuth (websocket) accepts `hub, <secret>`", () => {
  assertEquals(WS_PROTOCOL, "hub");
  assertEquals(authOf(wsReq(`hub, ${SECRET}`), SECRET, "websocket"), { authenticated: true });
  assertEquals(authOf(wsReq(`hub,${SECRET}`), SECRET, "websocket"), { authenticated: true });
});

Deno.test("checkAuth (websocket) refuses a missing header with 401", async () => {
  const message = await assertRefused(authOf(wsReq(), SECRET, "websocket"));
  assert(message.includes('"hub, <secret>"'), message);
});

Deno.test("checkAuth (websocket) refuses when hub is not the first protocol", async () => {
  await assertRefused(authOf(wsReq(`${SECRET}, hub`), SECRET, "websocket"));
  await assertRefused(authOf(wsReq(`chat, ${SECRET}`), SECRET, "websocket"));
  await assertRefused(authOf(wsReq(`HUB, ${SECRET}`), SECRET, "websocket"));
});

Deno.test("checkAuth (websocket) refuses a wrong or missing secret", async () => {
  const wrong = "b".repeat(64);
  const message = await assertRefused(
    authOf(wsReq(`hub, ${wrong}`), SECRET, "websocket"),
    wrong,
  );
  assert(message.startsWith("Wrong secret in Sec-WebSocket-Protocol"), message);
  await assertRefused(authOf(wsReq("hub"), SECRET, "websocket"));
  await assertRefused(authOf(wsReq("hub, "), SECRET, "websocket"));
  await assertRefused(authOf(wsReq(`hub, ${SECRET.slice(1)}`), SECRET, "websocket"));
});

Deno.test("checkAuth (websocket) ignores a Bearer header: the secret must be in the protocol", async () => {
  const req = new Request("http://127.0.0.1:9515/ws", {
    headers: { authorization: `Bearer ${SECRET}`, "sec-websocket-protocol": "hub" },
  });
  await assertRefused(authOf(req, SECRET, "websocket"));
});

Deno.test("checkAuth (websocket) with no secret configured needs only `hub`", async () => {
  assertEquals(authOf(wsReq("hub"), undefined, "websocket"), { authenticated: true });
  assertEquals(authOf(wsReq("hub, anything"), undefined, "websocket"), {
    authenticated: true,
  });
  await assertRefused(authOf(wsReq(), undefined, "websocket"));
  await assertRefused(authOf(wsReq("chat"), undefined, "websocket"));
});

Deno.test("checkAuth in websocket mode is the subprotocol check", async () => {
  assertEquals(authOf(wsReq(`hub, ${SECRET}`), SECRET, "websocket"), {
    authenticated: true,
  });
  await assertRefused(authOf(wsReq("hub, nope"), SECRET, "websocket"));
});

/** A request as Deno.serve hands it over, with raw header values (no URL check). */
function rawReq(headers: Record<string, string>): Request {
  return { headers: new Headers(headers), url: "http://127.0.0.1/health" } as unknown as Request;
}

Deno.test("parseHostHeader refuses what is not an RFC 3986 host and ports outside 1-65535", () => {
  for (
    const host of [
      "a b",
      "[::1",
      "::1]",
      "127.0.0.1:99999",
      "127.0.0.1:65536",
      "127.0.0.1:0",
      "127.0.0.1:",
      "localhost:80:80",
      "x@127.0.0.1",
      "127.0.0.1/x",
      "127.0.0.1?x",
      "127.0.0.1#x",
      "local\\host",
    ]
  ) {
    assertEquals(parseHostHeader(host), undefined, host);
  }
  assertEquals(parseHostHeader("127.0.0.1:65535"), { host: "127.0.0.1", port: "65535" });
  assertEquals(parseHostHeader("a%20b"), { host: "a%20b", port: undefined });
});

Deno.test("checkHost: 400 BAD_HOST when malformed, 403 when missing or foreign", async () => {
  for (const host of ["a b", "127.0.0.1:99999", "[::1", `${"a".repeat(100_000)} b`]) {
    const res = checkHost(rawReq({ host }));
    assertEquals(res?.status, 400, host.slice(0, 30));
    const text = await res!.text();
    assertEquals(JSON.parse(text).error.code, "BAD_HOST");
    assert(text.length < 500, `bounded message: ${text.length}`);
  }
  const refused: Record<string, string>[] = [
    {},
    { host: "" },
    { host: "evil.example" },
    { host: "[::2]:80" },
  ];
  for (const headers of refused) {
    assertEquals(checkHost(rawReq(headers))?.status, 403, JSON.stringify(headers));
  }
});

Deno.test("checkOrigin refuses two Origin headers (joined by a comma) and anything but one origin", async () => {
  for (
    const origin of [
      "chrome-extension://abcdefghijklmnop, http://evil.example",
      "http://evil.example, chrome-extension://abcdefghijklmnop",
      "chrome-extension://a,chrome-extension://b",
      "chrome-extension://a http://evil.example",
      "chrome-extension://abc/path",
      "chrome-extension://abc:1",
      "chrome-extension://",
      `chrome-extension://${"a".repeat(100_000)}`,
    ]
  ) {
    const res = checkOrigin(rawReq({ origin }));
    assertEquals(res?.status, 403, origin.slice(0, 60));
    const text = await res!.text();
    assertEquals(JSON.parse(text).error.code, "FORBIDDEN_ORIGIN");
    assert(text.length < 500, `bounded message: ${text.length}`);
  }
  const twice = new Headers();
  twice.append("origin", "chrome-extension://abcdefghijklmnop");
  twice.append("origin", "http://evil.example");
  const res = checkOrigin({ headers: twice } as unknown as Request);
  assertEquals(res?.status, 403);
  assert((await res!.json()).error.message.includes("at most one Origin"));
});

Deno.test("checkWebSocketUpgrade: 426 with Upgrade: websocket unless the request upgrades", async () => {
  assertEquals(checkWebSocketUpgrade(req({ upgrade: "websocket" })), undefined);
  assertEquals(checkWebSocketUpgrade(req({ upgrade: "WebSocket" })), undefined);
  const notUpgrades: Record<string, string>[] = [{}, { upgrade: "h2c" }, { upgrade: "" }];
  for (const headers of notUpgrades) {
    const res = checkWebSocketUpgrade(req(headers));
    assertEquals(res?.status, 426, JSON.stringify(headers));
    assertEquals(res!.headers.get("upgrade"), "websocket");
    assertEquals((await res!.json()).error.code, "UPGRADE_REQUIRED");
  }
});
