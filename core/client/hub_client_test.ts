import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { HubClient, UNPROVEN_HUB } from "./hub_client.ts";
import { isUserError } from "../cli/user_error.ts";
import { CHALLENGE_PATH, challengeProof } from "../../protocol/challenge.ts";

const SECRET = "ab".repeat(32);

type Answer = "proof" | "garbage" | "no-secret" | "not-found";

/** A server answering the challenge as told, recording each request's path and Authorization. */
async function withServer(
  answer: Answer,
  fn: (port: number, seen: { path: string; auth: string | null }[]) => Promise<void>,
) {
  const seen: { path: string; auth: string | null }[] = [];
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({ path: url.pathname, auth: req.headers.get("authorization") });
    if (url.pathname !== CHALLENGE_PATH) return Response.json({ ok: true });
    const nonce = url.searchParams.get("nonce")!;
    switch (answer) {
      case "proof":
        return Response.json({ proof: await challengeProof(SECRET, nonce, port) });
      case "garbage":
        return Response.json({ proof: "f".repeat(64) });
      case "no-secret":
        return Response.json({ error: { code: "NO_SECRET" } }, { status: 409 });
      case "not-found":
        return Response.json({ error: { code: "NOT_FOUND" } }, { status: 404 });
    }
  });
  port = server.addr.port;
  try {
    await fn(port, seen);
  } finally {
    await server.shutdown();
  }
}

Deno.test("the secret is sent after the proof, which is asked once per client", async () => {
  await withServer("proof", async (port, seen) => {
    const client = new HubClient(port, SECRET);
    assertEquals((await client.request("GET", "/tools"))?.status, 200);
    assertEquals((await client.request("POST", "/reload"))?.status, 200);
    assertEquals(seen, [
      { path: CHALLENGE_PATH, auth: null },
      { path: "/tools", auth: `Bearer ${SECRET}` },
      { path: "/reload", auth: `Bearer ${SECRET}` },
    ]);
  });
});

Deno.test("no proof: the unproven-hub error says what to do, and nothing is sent but the challenge", async () => {
  for (const answer of ["garbage", "not-found", "no-secret"] as const) {
    await withServer(answer, async (port, seen) => {
      const client = new HubClient(port, SECRET);
      const error = await client.request("GET", "/health").then(
        () => undefined,
        (e: Error) => e,
      );
      assert(isUserError(error, UNPROVEN_HUB), `${answer}: ${error}`);
      assertMatch(error.message, new RegExp(`process on port ${port} did not prove it knows`));
      assertMatch(error.message, /secret was not sent/);
      assertMatch(error.message, new RegExp(`lsof -i :${port}`));
      assertMatch(error.message, /older than this CLI/);
      assertEquals(seen.map((s) => s.path), [CHALLENGE_PATH], answer);
      assertEquals(seen.every((s) => s.auth === null), true);
      // A second request asks again (a failure is not cached) and still sends nothing.
      await assertRejects(
        () => client.request("GET", "/health"),
        (e: Error) => isUserError(e, UNPROVEN_HUB),
      );
      assertEquals(seen.map((s) => s.path), [CHALLENGE_PATH, CHALLENGE_PATH]);
    });
  }
});

Deno.test("a process that claims to have no secret gets no request, with or without a token", async () => {
  await withServer("no-secret", async (port, seen) => {
    const client = new HubClient(port, SECRET);
    const error = await client.request("POST", "/tools/x/call", { body: { arguments: { a: 1 } } })
      .then(() => undefined, (e: Error) => e);
    assert(isUserError(error, UNPROVEN_HUB), String(error));
    assertMatch(error.message, /409 NO_SECRET: it claims to have no secret/);
    assertMatch(error.message, /never does/);
    await assertRejects(() => client.health(), (e: Error) => isUserError(e, UNPROVEN_HUB));
    assertEquals(seen.map((s) => s.path), [CHALLENGE_PATH, CHALLENGE_PATH]);
  });
});

Deno.test("no secret, or no auth asked: no challenge at all", async () => {
  await withServer("garbage", async (port, seen) => {
    // A client without a secret (auth.json missing or broken) has nothing to prove or protect.
    await new HubClient(port, undefined).request("GET", "/tools");
    await new HubClient(port, SECRET).request("GET", "/health", { auth: false });
    assertEquals(seen, [{ path: "/tools", auth: null }, { path: "/health", auth: null }]);
    await assertRejects(() => new HubClient(port, undefined).prove(), /needs a secret/);
  });
});

Deno.test("nothing listening: undefined, as before", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  assertEquals(await new HubClient(port, SECRET).request("GET", "/tools"), undefined);
  assertEquals(await new HubClient(port, SECRET).prove(), undefined);
});

/** A hub that knows the secret but answers each request (challenge included) after `delayMs`. */
async function withSlowHub(delayMs: number, fn: (port: number) => Promise<void>) {
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await new Promise((r) => setTimeout(r, delayMs));
    const url = new URL(req.url);
    if (url.pathname !== CHALLENGE_PATH) return Response.json({ version: "x" });
    return Response.json({
      proof: await challengeProof(SECRET, url.searchParams.get("nonce")!, port),
    });
  });
  port = server.addr.port;
  try {
    await fn(port);
  } finally {
    await server.shutdown();
  }
}

Deno.test("health with oneDeadline: the identity check and the request share one time limit", async () => {
  await withSlowHub(400, async (port) => {
    // Each step alone is within 600 ms: other commands keep a limit per step.
    assertEquals((await new HubClient(port, SECRET).health(600))?.version, "x");
    const started = performance.now();
    const error = await new HubClient(port, SECRET).health(600, { oneDeadline: true }).then(
      () => undefined,
      (e: Error) => e,
    );
    const took = performance.now() - started;
    assertMatch(String(error), /did not answer \/health within 1 s/);
    assert(took >= 550 && took < 780, `took ${took} ms`);
  });
});
