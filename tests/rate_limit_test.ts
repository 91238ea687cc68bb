/**
 * End to end: POST /reload allows 10 authenticated requests a minute (docs/http.md, "Rate
 * limits"); only requests that pass Host, Origin and auth count. The tests share one hub and run in order.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { type RunningHub, startHub, tempConfigDir } from "./helpers/hub_process.ts";
import { rawRequest } from "./helpers/raw_http.ts";

let hub: RunningHub;
let configDir = "";

Deno.test.beforeAll(async () => {
  configDir = await tempConfigDir();
  hub = await startHub({ configDir });
});

Deno.test.afterAll(async () => {
  try {
    assertEquals(await hub?.stop(), 0);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

function reload(headers: Record<string, string> = { authorization: `Bearer ${hub.secret}` }) {
  return fetch(`${hub.url}/reload`, { method: "POST", headers });
}

Deno.test("refused requests to /reload do not use up its budget", async () => {
  const refused: [Record<string, string>, number][] = [
    [{}, 401],
    [
      { authorization: "Bearer 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" },
      401,
    ],
    [{ authorization: `Bearer ${"x".repeat(64)}` }, 401],
    [{ authorization: `Bearer ${hub.secret}`, origin: "https://evil.example" }, 403],
  ];
  for (let i = 0; i < 20; i++) {
    const [headers, status] = refused[i % refused.length];
    const res = await reload(headers);
    assertEquals(res.status, status, `refused request ${i + 1}`);
    await res.body?.cancel();
  }
  for (let i = 0; i < 3; i++) {
    const evilHost = await rawRequest(hub.port, {
      method: "POST",
      path: "/reload",
      headers: { Host: "evil.example", authorization: `Bearer ${hub.secret}` },
    });
    assertEquals(evilHost.status, 403);
  }
});

Deno.test("10 authenticated POST /reload succeed, the 11th gets 429 with Retry-After: 60", async () => {
  for (let i = 1; i <= 10; i++) {
    const res = await reload();
    assertEquals(res.status, 200, `authenticated reload ${i}`);
    const body = await res.json();
    assertEquals(Object.keys(body).sort(), ["durationMs", "ok", "plugins"]);
    assertEquals(body.ok, true);
    assertEquals(body.plugins, 0);
    assert(
      Number.isInteger(body.durationMs) && body.durationMs >= 0,
      `durationMs ${body.durationMs}`,
    );
  }
  const over = await reload();
  assertEquals(over.status, 429);
  assertEquals(over.headers.get("retry-after"), "60");
  assertEquals((await over.json()).error.code, "RATE_LIMITED");

  const health = await fetch(`${hub.url}/health`, {
    headers: { authorization: `Bearer ${hub.secret}` },
  });
  assertEquals((await health.json()).reloadCount, 10, "only the 10 allowed reloads ran");
});

Deno.test("over the limit: /reload stays 429, auth still comes first, other routes unaffected", async () => {
  const again = await reload();
  assertEquals(again.status, 429);
  assertEquals(again.headers.get("retry-after"), "60");
  await again.body?.cancel();

  const unauthenticated = await reload({});
  assertEquals(unauthenticated.status, 401, "the Bearer guard runs before the rate limit");
  await unauthenticated.body?.cancel();

  for (const path of ["/health", "/ws-info"]) {
    const res = await fetch(`${hub.url}${path}`, {
      headers: { authorization: `Bearer ${hub.secret}` },
    });
    assertEquals(res.status, 200, `${path} is not rate limited`);
    await res.body?.cancel();
  }
});

Deno.test("the limit belongs to the server: a fresh hub has a fresh budget", async () => {
  const otherDir = await tempConfigDir();
  const other = await startHub({ configDir: otherDir });
  try {
    const res = await fetch(`${other.url}/reload`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.secret}` },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  } finally {
    assertEquals(await other.stop(), 0);
    await Deno.remove(otherDir, { recursive: true });
  }
});
