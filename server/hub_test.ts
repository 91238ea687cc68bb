import { assertEquals } from "../tests/helpers/assert.ts";
import { generateSecret, writeSecret } from "../core/config/secret.ts";
import { createInProcessHub } from "../tests/helpers/in_process_hub.ts";
import { loadValidators } from "./plugins/validators.ts";
import { until } from "../tests/helpers/until.ts";

async function withHub(fn: (ctx: Awaited<ReturnType<typeof makeHub>>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hub-core-" });
  try {
    const ctx = await makeHub(dir);
    try {
      await fn(ctx);
    } finally {
      await ctx.hub.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function makeHub(dir: string) {
  const { paths, hub, secret } = await createInProcessHub(dir);
  hub.setPort(9999);
  const call = (path: string, token?: string, method = "GET") =>
    hub.handler(
      new Request(`http://127.0.0.1:9999${path}`, {
        method,
        headers: { host: "127.0.0.1:9999", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      }),
    );
  return { paths, hub, secret, call };
}

Deno.test("a rotated auth.json takes effect: the new secret at once, the old one refused promptly", async () => {
  await withHub(async ({ paths, secret, call }) => {
    assertEquals((await call("/ws-info", secret)).status, 200);
    const next = generateSecret();
    await writeSecret(paths.auth, next);
    const status = async (token: string) => {
      const res = await call("/ws-info", token);
      await res.body?.cancel();
      return res.status;
    };
    // The bound is 100 ms; a second is generous for a busy machine yet fails if the bound is lost.
    await until(async () => (await status(secret)) === 401, "the old secret refused", 1_000);
    assertEquals(await (await call("/ws-info", next)).json(), { wsUrl: "ws://127.0.0.1:9999/ws" });

    // A refused credential looks at auth.json once more (at most once per 10 ms for all callers),
    // so the new secret does not wait for the 100 ms bound.
    const third = generateSecret();
    await writeSecret(paths.auth, third);
    await new Promise((r) => setTimeout(r, 15));
    assertEquals(await status(third), 200);
    assertEquals(await status(next), 401);
  });
});

Deno.test("a deleted or broken auth.json never switches auth off; /reload reports it", async () => {
  await withHub(async ({ paths, secret, call }) => {
    await Deno.remove(paths.auth);
    assertEquals((await call("/ws-info")).status, 401);
    const reload = await call("/reload", secret, "POST");
    assertEquals(reload.status, 500);
    assertEquals((await reload.json()).error.code, "RELOAD_FAILED");
    await Deno.writeTextFile(paths.auth, "{oops");
    assertEquals((await call("/ws-info")).status, 401);
    assertEquals((await call("/ws-info", secret)).status, 200, "the last good secret stays");
  });
});

Deno.test("the hub follows config.json edits and keeps the last good config on a broken edit", async () => {
  await withHub(async ({ paths, hub, secret, call }) => {
    const config = JSON.parse(await Deno.readTextFile(paths.config));
    await Deno.writeTextFile(paths.config, JSON.stringify({ ...config, telemetry: false }));
    await until(() => hub.config().telemetry === false, "the edit to be seen");
    await Deno.writeTextFile(paths.config, "{ broken");
    await new Promise((r) => setTimeout(r, 150)); // past the bound: the broken edit was looked at
    assertEquals(hub.config().telemetry, false);
    const reload = await call("/reload", secret, "POST");
    assertEquals([reload.status, (await reload.json()).error.code], [500, "RELOAD_FAILED"]);
  });
});

Deno.test("/reload counts reloads in /health", async () => {
  await withHub(async ({ secret, call }) => {
    const body = await (await call("/reload", secret, "POST")).json();
    assertEquals([body.ok, body.plugins, typeof body.durationMs], [true, 0, "number"]);
    const health = await (await call("/health", secret)).json();
    assertEquals(health.reloadCount, 1);
    assertEquals(health.lastReloadTimestamp > 0, true);
  });
});

Deno.test("preload imports what start left out: ajv for validators (and the SDK, the package module)", async () => {
  await withHub(async ({ hub }) => {
    await hub.preload();
    assertEquals(loadValidators(), undefined, "ajv is loaded");
    await hub.preload(); // again: nothing left to do, no error
  });
});
