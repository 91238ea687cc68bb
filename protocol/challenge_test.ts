/// <reference lib="deno.ns" />
import { createHmac } from "node:crypto";
import { assert, assertEquals, assertMatch, assertRejects } from "../tests/helpers/assert.ts";
import {
  CHALLENGE_PATH,
  challengeProof,
  CLAIMS_NO_SECRET_REASON,
  constantTimeEqual,
  isNonce,
  MAX_ANSWER_BYTES,
  newNonce,
  proveHub,
} from "./challenge.ts";

const SECRET = "5e".repeat(32);
const NONCE = "0123456789abcdef".repeat(4);

Deno.test("the proof is HMAC-SHA256(secret, label, nonce, port) in lowercase hex", async () => {
  const expected = createHmac("sha256", SECRET)
    .update(`hub-challenge-v1\n${NONCE}\n9515`)
    .digest("hex");
  assertEquals(await challengeProof(SECRET, NONCE, 9515), expected);
});

Deno.test("the proof changes with the secret, the nonce and the port", async () => {
  const base = await challengeProof(SECRET, NONCE, 9515);
  assert(base !== await challengeProof("a".repeat(64), NONCE, 9515));
  assert(base !== await challengeProof(SECRET, "f" + NONCE.slice(1), 9515));
  assert(base !== await challengeProof(SECRET, NONCE, 9516));
});

Deno.test("nonces: 32 to 64 hex characters only", async () => {
  assert(isNonce("a".repeat(32)) && isNonce("A".repeat(64)));
  for (const bad of ["a".repeat(31), "a".repeat(65), "g".repeat(32), "", `${"a".repeat(32)}\n`]) {
    assertEquals(isNonce(bad), false, JSON.stringify(bad));
  }
  await assertRejects(() => challengeProof(SECRET, "xyz", 9515), /nonce/);
  await assertRejects(() => challengeProof(SECRET, NONCE, 0), /port 0/);
});

Deno.test("newNonce: 64 lowercase hex, fresh each time", () => {
  const a = newNonce();
  assertMatch(a, /^[0-9a-f]{64}$/);
  assert(a !== newNonce());
});

Deno.test("constantTimeEqual: equal only for the same string", () => {
  assert(constantTimeEqual("abc", "abc"));
  assert(!constantTimeEqual("abc", "abd"));
  assert(!constantTimeEqual("abc", "ab"));
  assert(!constantTimeEqual("", "a"));
  assert(constantTimeEqual("", ""));
});

/** A fetch that answers like a hub knowing `secret` on `port` (or as `answer` says). */
function fakeHub(answer: (nonce: string) => Promise<Response> | Response) {
  const urls: string[] = [];
  const inits: RequestInit[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    urls.push(url);
    inits.push(init);
    return await answer(new URL(url).searchParams.get("nonce")!);
  };
  return { fetch, urls, inits };
}

Deno.test("proveHub: a hub that knows the secret is proven; the nonce is fresh", async () => {
  const hub = fakeHub(async (nonce) =>
    Response.json({ proof: await challengeProof(SECRET, nonce, 4000) })
  );
  assertEquals(await proveHub({ port: 4000, secret: SECRET, fetch: hub.fetch }), {
    kind: "proven",
  });
  await proveHub({ port: 4000, secret: SECRET, fetch: hub.fetch });
  const [first, second] = hub.urls.map((u) => new URL(u));
  assertEquals(first.origin + first.pathname, `http://127.0.0.1:4000${CHALLENGE_PATH}`);
  assertMatch(first.searchParams.get("nonce")!, /^[0-9a-f]{64}$/);
  assert(first.searchParams.get("nonce") !== second.searchParams.get("nonce"));
  assertEquals(hub.inits[0].redirect, "manual");
  assertEquals(hub.inits[0].headers, undefined, "the challenge carries no secret");
});

Deno.test("proveHub: a relayed proof (the real hub on another port) is refused", async () => {
  const relay = fakeHub(async (nonce) =>
    Response.json({ proof: await challengeProof(SECRET, nonce, 9515) })
  );
  const found = await proveHub({ port: 4000, secret: SECRET, fetch: relay.fetch });
  assertEquals(found, { kind: "unproven", reason: "its proof is wrong" });
});

Deno.test("proveHub: garbage, wrong secrets, old hubs and errors are unproven", async () => {
  const cases: [string, (nonce: string) => Response | Promise<Response>, RegExp][] = [
    [
      "wrong secret",
      async (n) => Response.json({ proof: await challengeProof("b", n, 1) }),
      /wrong/,
    ],
    ["no proof", () => Response.json({ ok: true }), /no proof/],
    ["not json", () => new Response("hello"), /no proof/],
    ["proof not hex", () => Response.json({ proof: "z".repeat(64) }), /no proof/],
    ["old hub", () => Response.json({ error: { code: "NOT_FOUND" } }, { status: 404 }), /404/],
    ["401", () => new Response("", { status: 401 }), /HTTP 401/],
    ["409 other", () => Response.json({ error: { code: "X" } }, { status: 409 }), /HTTP 409/],
    ["redirect", () => new Response(null, { status: 302, headers: { location: "/" } }), /302/],
    ["huge", () => new Response("x".repeat(MAX_ANSWER_BYTES * 4)), /no proof/],
  ];
  for (const [name, answer, reason] of cases) {
    const found = await proveHub({ port: 1, secret: SECRET, fetch: fakeHub(answer).fetch });
    assertEquals(found.kind, "unproven", name);
    assertMatch((found as { reason: string }).reason, reason, name);
  }
});

Deno.test("proveHub: a claim to have no secret (409 NO_SECRET) is unproven, and says so", async () => {
  const hub = fakeHub(() => Response.json({ error: { code: "NO_SECRET" } }, { status: 409 }));
  assertEquals(await proveHub({ port: 1, secret: SECRET, fetch: hub.fetch }), {
    kind: "unproven",
    reason: CLAIMS_NO_SECRET_REASON,
  });
  assertMatch(CLAIMS_NO_SECRET_REASON, /claims to have no secret.*never does/);
});

Deno.test("proveHub: fetch errors (nothing listening, timeouts) reach the caller", async () => {
  const fetch = () => Promise.reject(new TypeError("Connection refused"));
  await assertRejects(() => proveHub({ port: 1, secret: SECRET, fetch }), TypeError);
});
