/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { diagnose, type DiagnosisDeps, versionProblem } from "./link_diagnosis.ts";
import { CHALLENGE_PATH, challengeProof } from "../../../protocol/challenge.ts";

const ADDRESS = { port: 9515, secret: "a".repeat(64) };
const down = { state: "disconnected" as const, lastError: "closed (1006)" };

/** The answer of a hub that knows ADDRESS.secret on `port`. */
async function provenAnswer(url: URL, port = ADDRESS.port): Promise<Response> {
  const nonce = url.searchParams.get("nonce")!;
  return Response.json({ proof: await challengeProof(ADDRESS.secret, nonce, port) });
}

/**
 * Deps whose fetch answers the challenge with `challenge` (default: a real proof) and everything
 * else (`/health`) with `answer`. Every request is recorded with its headers.
 */
function deps(
  answer: () => Promise<Response>,
  extra: Partial<DiagnosisDeps> = {},
  challenge: (url: URL) => Promise<Response> = provenAnswer,
): DiagnosisDeps & { requests: { path: string; headers: Headers }[] } {
  const requests: { path: string; headers: Headers }[] = [];
  return {
    extensionVersion: "1.0.0",
    readAddress: () => Promise.resolve(ADDRESS),
    fetch: (input, init) => {
      const url = new URL(String(input));
      requests.push({ path: url.pathname, headers: new Headers(init?.headers) });
      return url.pathname === CHALLENGE_PATH ? challenge(url) : answer();
    },
    requests,
    ...extra,
  };
}

Deno.test("connected: no problem, and no request is made", async () => {
  let asked = false;
  const found = await diagnose(
    { state: "connected", port: 9515 },
    deps(() => {
      asked = true;
      return Promise.resolve(new Response("{}"));
    }),
  );
  assertEquals([found, asked], [undefined, false]);
});

Deno.test("nothing answering on the port is not_running, with the address and the fix", async () => {
  const found = await diagnose(down, deps(() => Promise.reject(new TypeError("Failed to fetch"))));
  assertEquals(found?.kind, "not_running");
  assertEquals(found?.message.includes("127.0.0.1:9515"), true);
  assertEquals(found?.fix.includes("hub start"), true);
});

Deno.test("the secret goes to /health only after the process proved it knows it", async () => {
  const d = deps(() => Promise.resolve(Response.json({ status: "ok", version: "1.0.0" })));
  await diagnose(down, d);
  assertEquals(d.requests.map((r) => r.path), [CHALLENGE_PATH, "/health"]);
  assertEquals(d.requests[0].headers.get("authorization"), null);
  assertEquals(d.requests[1].headers.get("authorization"), `Bearer ${ADDRESS.secret}`);
});

Deno.test("a process that does not prove the secret is not_hub, and gets no secret", async () => {
  const answers: [string, (url: URL) => Promise<Response>][] = [
    ["garbage", () => Promise.resolve(Response.json({ proof: "0".repeat(64) }))],
    ["relayed to a hub on another port", (url) => provenAnswer(url, 9516)],
    ["old hub or other server", () => Promise.resolve(new Response("", { status: 404 }))],
    [
      "a claim to have no secret",
      () => Promise.resolve(Response.json({ error: { code: "NO_SECRET" } }, { status: 409 })),
    ],
  ];
  for (const [name, challenge] of answers) {
    const d = deps(() => Promise.reject(new Error("must not be asked")), {}, challenge);
    const found = await diagnose(down, d);
    assertEquals(found?.kind, "not_hub", name);
    assertMatch(found!.message, /^Another program is on port 9515: it did not prove/, name);
    assertMatch(found!.fix, /lsof -i :9515/, name);
    assertEquals(d.requests.map((r) => r.path), [CHALLENGE_PATH], name);
    for (const r of d.requests) {
      assert(![...r.headers.values()].some((v) => v.includes(ADDRESS.secret)), name);
    }
  }
});

Deno.test("a claim to have no secret is named in the diagnosis, and /health is not asked", async () => {
  const d = deps(
    () => Promise.reject(new Error("must not be asked")),
    {},
    () => Promise.resolve(Response.json({ error: { code: "NO_SECRET" } }, { status: 409 })),
  );
  const found = await diagnose(down, d);
  assertEquals(found?.kind, "not_hub");
  assertMatch(found!.message, /claims to have no secret, which a hub set up .* never does/);
  assertEquals(d.requests.map((r) => r.path), [CHALLENGE_PATH]);
});

Deno.test("a 401 from /health is wrong_secret", async () => {
  const found = await diagnose(
    down,
    deps(() => Promise.resolve(new Response("", { status: 401 }))),
  );
  assertEquals(found?.kind, "wrong_secret");
});

Deno.test("another hub version is version_mismatch, naming both versions", async () => {
  const found = await diagnose(
    down,
    deps(() => Promise.resolve(Response.json({ status: "ok", version: "2.0.0" }))),
  );
  assertEquals(found?.kind, "version_mismatch");
  assertEquals(found?.message, "The hub is version 2.0.0, this extension is 1.0.0.");
});

Deno.test("a healthy hub of the same version is 'other', with the last error", async () => {
  const found = await diagnose(
    down,
    deps(() => Promise.resolve(Response.json({ status: "ok", version: "1.0.0" }))),
  );
  assertEquals(found?.kind, "other");
  assertEquals(found?.message.includes("closed (1006)"), true);
});

Deno.test("missing server.json or auth.json is not_set_up, with the reason", async () => {
  const found = await diagnose(
    down,
    deps(() => Promise.reject(new Error("unused")), {
      readAddress: () => Promise.reject(new Error("server.json is missing (HTTP 404)")),
    }),
  );
  assertEquals(found?.kind, "not_set_up");
  assertEquals(found?.message.includes("server.json is missing"), true);
});

Deno.test("a link taken by another profile is 'replaced' without asking the hub", async () => {
  const found = await diagnose(
    { state: "disconnected", replaced: true },
    deps(() => Promise.reject(new Error("must not be called"))),
  );
  assertEquals(found?.kind, "replaced");
});

Deno.test("versionProblem only when the versions differ", () => {
  assertEquals(versionProblem("1.0.0", "1.0.0"), undefined);
  assertEquals(versionProblem("1.1.0", "1.0.0")?.kind, "version_mismatch");
});
