import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { freePort, withTempDir } from "../../tests/helpers/hub_process.ts";
import { serveInProcessHub } from "../../tests/helpers/in_process_hub.ts";
import { startSquatter } from "../../tests/helpers/port_squatter.ts";
import { VERSION } from "../../protocol/version.ts";
import { CHALLENGE_PATH, challengeProof } from "../../protocol/challenge.ts";
import { extensionConnectedCheck, healthCheck, NOT_RUNNING } from "./server_checks.ts";

const SECRET = "f".repeat(64);

Deno.test("nothing on the port: hub not running (fatal), extension check skipped", async () => {
  const port = freePort();
  for (const secret of [SECRET, undefined]) {
    const outcome = await healthCheck(port, secret, VERSION);
    assertEquals(outcome.check.status, "error");
    assertEquals(outcome.check.message, `hub is not running on port ${port}`);
    assertEquals(outcome.check.fix, "hub start");
  }
  const skipped = extensionConnectedCheck(undefined, "/x/extension");
  assertEquals([skipped.status, skipped.message], ["skip", NOT_RUNNING]);
});

Deno.test("a stranger on the port gets no secret and a clear error", async () => {
  const squatter = startSquatter("garbage");
  try {
    const outcome = await healthCheck(squatter.port, SECRET, VERSION);
    assertEquals(outcome.check.status, "error");
    assertMatch(outcome.check.message, /did not prove it knows the hub secret/);
    assertMatch(outcome.check.fix!, new RegExp(`lsof -i :${squatter.port}`));
    assertEquals(squatter.leaks(SECRET), []);
    assertEquals(squatter.others(), []);
    assertEquals(outcome.skipReason, "skipped (no answer from a hub on the port)");
  } finally {
    await squatter.stop();
  }
});

Deno.test("a real hub: pass, a version other than the CLI's warns, extension not connected", async () => {
  await withTempDir(async (dir) => {
    const hub = await serveInProcessHub(dir);
    try {
      const good = await healthCheck(hub.port, hub.secret, VERSION);
      assertEquals(good.check.status, "pass");
      assertEquals(good.health?.version, VERSION);
      const other = await healthCheck(hub.port, hub.secret, "99.0.0");
      assertEquals(other.check.status, "warn");
      assertMatch(
        other.check.message,
        new RegExp(`hub ${VERSION} runs on port ${hub.port}, but this CLI is 99\\.0\\.0`),
      );
      assertEquals(other.check.fix, "restart the hub: hub stop && hub start");
      const wrong = await healthCheck(hub.port, SECRET, VERSION);
      assertEquals(wrong.check.status, "error");
      assertMatch(wrong.check.message, /did not prove/);
      const noSecret = await healthCheck(hub.port, undefined, VERSION);
      assertEquals(noSecret.check.status, "skip");
      assertEquals(noSecret.skipReason, "skipped (no valid secret)");
      const ext = extensionConnectedCheck(good.health, `${dir}/extension`);
      assertEquals(ext.status, "error");
      assertMatch(ext.fix!, new RegExp(`Load unpacked" → ${dir}/extension`));
      const connected = extensionConnectedCheck(
        { ...good.health!, extensionConnected: true, extensionConnections: 1 },
        "",
      );
      assertEquals(connected.status, "pass");
    } finally {
      await hub.stop();
    }
  });
});

Deno.test("a hub that answers the identity check slowly: one 3 s limit for the whole check", async () => {
  let port = 0;
  const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await new Promise((r) => setTimeout(r, 2_000));
    const url = new URL(req.url);
    if (url.pathname !== CHALLENGE_PATH) return Response.json({ version: VERSION });
    return Response.json({
      proof: await challengeProof(SECRET, url.searchParams.get("nonce")!, port),
    });
  });
  port = slow.addr.port;
  try {
    const started = performance.now();
    const outcome = await healthCheck(port, SECRET, VERSION);
    const took = performance.now() - started;
    assertEquals(outcome.check.status, "error");
    assertMatch(outcome.check.message, /did not answer \/health within 3 s/);
    assertEquals(took >= 2_900 && took < 3_500, true, `took ${took} ms`);
  } finally {
    await slow.shutdown();
  }
});
