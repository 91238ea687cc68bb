/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { diagnose, type DiagnosisDeps, versionProblem } from "./link_diagnosis.ts";

const ADDRESS = { port: 9515, secret: "a".repeat(64) };
const down = { state: "disconnected" as const, lastError: "closed (1006)" };

function deps(answer: () => Promise<Response>, extra: Partial<DiagnosisDeps> = {}): DiagnosisDeps {
  return {
    extensionVersion: "1.0.0",
    readAddress: () => Promise.resolve(ADDRESS),
    fetch: () => answer(),
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
