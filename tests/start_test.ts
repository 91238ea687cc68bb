import { assert, assertEquals } from "./helpers/assert.ts";
import { startHub, tempConfigDir } from "./helpers/hub_process.ts";

Deno.test("first start creates config and secret (0600) and serves /health", async () => {
  const configDir = await tempConfigDir();
  const hub = await startHub({ configDir });
  try {
    const res = await fetch(`${hub.url}/health`);
    assertEquals(await res.json(), { status: "ok" });
    const config = await Deno.stat(`${configDir}/config.json`);
    assertEquals(config.mode! & 0o777, 0o600);
    const auth = await Deno.stat(`${configDir}/extension/auth.json`);
    assertEquals(auth.mode! & 0o777, 0o600);
    assert(/^[0-9a-f]{64}$/.test(hub.secret));
    assert(hub.output().includes("First run"), hub.output());
  } finally {
    assertEquals(await hub.stop(), 0);
    await Deno.remove(configDir, { recursive: true });
  }
});
