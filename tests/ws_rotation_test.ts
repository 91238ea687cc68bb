/** Secret rotation reaches the extension: its socket closes with 4001 and the new secret works. */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { serveInProcessHub } from "./helpers/in_process_hub.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";

Deno.test("a rotated secret closes the extension socket with 4001; the new secret connects", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-rotation-" });
  const served = await serveInProcessHub(dir);
  try {
    const ext = await FakeExtension.connect(served.port, served.secret);
    await ext.waitFor((m) => m.method === "sync.full");
    const fresh = "ab".repeat(32);
    await Deno.writeTextFile(
      join(dir, "extension", "auth.json"),
      JSON.stringify({ secret: fresh }),
    );
    const res = await fetch(`${served.url}/reload`, {
      method: "POST",
      headers: { authorization: `Bearer ${fresh}` },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    const closed = await ext.closed;
    assertEquals(closed.code, 4001);
    assertEquals(closed.reason, "secret rotated");

    await assertRefused(served.port, served.secret);
    const again = await FakeExtension.connect(served.port, fresh);
    await again.waitFor((m) => m.method === "sync.full");
    await again.close();
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

async function assertRefused(port: number, secret: string) {
  let refused = false;
  try {
    const old = await FakeExtension.connect(port, secret);
    await old.close();
  } catch {
    refused = true;
  }
  assert(refused, "the old secret must no longer open /ws");
}
