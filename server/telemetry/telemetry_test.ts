import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { Logger } from "../log/logger_interface.ts";
import { createTelemetry, type TelemetryOptions } from "./telemetry.ts";
import type { TelemetrySettings } from "../../core/telemetry/settings.ts";
import { until } from "../../tests/helpers/until.ts";

const ID = "0b8a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d";
const ENDPOINT = "http://127.0.0.1:9/v1/events";

interface Rig {
  posts: { events: { event: string }[] }[];
  logs: string[];
  printed: string[];
  options: TelemetryOptions;
}

function rig(
  overrides: Partial<TelemetryOptions> & { answer?: "ok" | "hang" | "fail" } = {},
  settings: Partial<TelemetrySettings> = {},
): Rig {
  const posts: Rig["posts"] = [];
  const logs: string[] = [];
  const printed: string[] = [];
  const log = (level: string) => (m: string) => logs.push(`${level} ${m}`);
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
  };
  const fetch = ((_url: string, init: RequestInit) => {
    posts.push(JSON.parse(init.body as string));
    if (overrides.answer === "hang") {
      return new Promise((_, reject) =>
        init.signal!.addEventListener("abort", () => reject(init.signal!.reason))
      );
    }
    if (overrides.answer === "fail") return Promise.reject(new TypeError("connection refused"));
    return Promise.resolve(new Response(null, { status: 204 }));
  }) as typeof globalThis.fetch;
  const options: TelemetryOptions = {
    settings: { env: {}, debug: false, endpoint: { endpoint: ENDPOINT }, ...settings },
    configDir: "/nonexistent",
    configEnabled: () => true,
    mode: "production",
    logger,
    fetch,
    print: (line) => printed.push(line),
    installationId: () => Promise.resolve(ID),
    batchDelayMs: 5,
    send: { backoffMs: [1, 1], timeoutMs: 60_000 },
    ...overrides,
  };
  return { posts, logs, printed, options };
}

Deno.test("hub_started is sent soon after start, usage at stop; nothing else", async () => {
  const r = rig();
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 1, npm: 2 });
  await until(() => r.posts.length === 1, "the hub_started post", 3_000);
  assertEquals(r.posts[0].events.map((e) => e.event), ["hub_started"]);
  telemetry.recordCall({ plugin: "my-app", success: true });
  telemetry.recordCall({
    plugin: "browser",
    success: false,
    error: { code: "TIMEOUT", message: "m", category: "timeout" },
  });
  await telemetry.stop();
  assertEquals(r.posts.length, 2);
  const [usage] = r.posts[1].events as unknown as Record<string, unknown>[];
  assertEquals(usage.event, "usage");
  assertEquals(usage.calls, {
    success: 1,
    failure: 1,
    byCategory: { timeout: 1 },
    byKind: { plugin: 1, browser: 1 },
  });
  assertEquals(usage.installationId, ID);
});

Deno.test("no calls: no usage event at stop", async () => {
  const r = rig();
  const telemetry = createTelemetry(r.options);
  await telemetry.stop();
  assertEquals(r.posts, []);
});

Deno.test("usage is emitted every interval when there were calls", async () => {
  const r = rig({ usageIntervalMs: 30 });
  const telemetry = createTelemetry(r.options);
  telemetry.recordCall({ plugin: "x", success: true });
  await until(() => r.posts.length === 1, "a periodic usage post", 3_000);
  assertEquals(r.posts[0].events.map((e) => e.event), ["usage"]);
  await telemetry.stop();
  assertEquals(r.posts.length, 1, "nothing new to report at stop");
});

Deno.test("off by config or environment: nothing is sent, and no id is read", async () => {
  const cases: [Partial<TelemetryOptions>, Partial<TelemetrySettings>][] = [
    [{ configEnabled: () => false }, {}],
    [{}, { env: { HUB_TELEMETRY_DISABLED: "1" } }],
    [{}, { env: { DO_NOT_TRACK: "1" } }],
  ];
  for (const [overrides, settings] of cases) {
    let idReads = 0;
    const r = rig({
      ...overrides,
      installationId: () => (idReads++, Promise.resolve(ID)),
    }, settings);
    const telemetry = createTelemetry(r.options);
    telemetry.started({ local: 0, npm: 0 });
    telemetry.recordCall({ plugin: "x", success: true });
    await new Promise((r) => setTimeout(r, 30));
    await telemetry.stop();
    assertEquals([r.posts.length, idReads], [0, 0], JSON.stringify(settings));
    assertMatch(r.logs.join("\n"), /debug telemetry: off \(/);
  }
});

Deno.test("the config is asked again at send: a disable drops what waited", async () => {
  let enabled = true;
  const r = rig({ configEnabled: () => enabled, batchDelayMs: 50 });
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 0, npm: 0 });
  await new Promise((r) => setTimeout(r, 10));
  enabled = false;
  await new Promise((r) => setTimeout(r, 80));
  enabled = true;
  telemetry.recordCall({ plugin: "x", success: true });
  await telemetry.stop();
  assertEquals(r.posts.map((p) => p.events.map((e) => e.event)), [["usage"]]);
});

Deno.test("debug mode prints each event as one JSON line and sends nothing", async () => {
  const r = rig({}, { debug: true });
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 0, npm: 1 });
  telemetry.recordCall({ plugin: "x", success: true });
  await telemetry.stop();
  assertEquals(r.posts, []);
  assertEquals(r.printed.length, 2);
  for (const line of r.printed) assertMatch(line, /^telemetry: \{"event":"(hub_started|usage)"/);
  assertEquals(JSON.parse(r.printed[0].slice("telemetry: ".length)).plugins, { local: 0, npm: 1 });
});

Deno.test("a refused endpoint is one warning, and nothing is sent", async () => {
  const r = rig({}, { endpoint: { refused: "HUB_TELEMETRY_ENDPOINT=x is refused" } });
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 0, npm: 0 });
  await telemetry.stop();
  assertEquals(r.posts, []);
  assertEquals(r.logs.filter((l) => l.startsWith("warn")), [
    "warn HUB_TELEMETRY_ENDPOINT=x is refused",
  ]);
});

Deno.test("a hanging endpoint: stop waits at most stopWaitMs, then abandons the send", async () => {
  const r = rig({ answer: "hang", stopWaitMs: 100 });
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 0, npm: 0 });
  await until(() => r.posts.length === 1, "the hanging post", 3_000);
  telemetry.recordCall({ plugin: "x", success: true });
  const started = performance.now();
  await telemetry.stop();
  const took = performance.now() - started;
  assert(took >= 90 && took < 1_000, `stop took ${took} ms`);
});

Deno.test("an endpoint that is down: retried, dropped, and only a few debug lines", async () => {
  const r = rig({ answer: "fail", usageIntervalMs: 10 });
  const telemetry = createTelemetry(r.options);
  for (let i = 0; i < 5; i++) {
    telemetry.recordCall({ plugin: "x", success: true });
    await new Promise((r) => setTimeout(r, 25));
  }
  await telemetry.stop();
  assert(r.posts.length >= 6, `${r.posts.length} attempts`);
  const debug = r.logs.filter((l) => l.startsWith("debug telemetry:") && !/: (on|off) \(/.test(l));
  assertEquals(debug.length, 6, debug.join("\n"));
  assertEquals(debug.at(-1), "debug telemetry: further errors are not logged");
  assertEquals(r.logs.filter((l) => !l.startsWith("debug")), []);
});

Deno.test("calls made while telemetry is off are never reported, even after an enable", async () => {
  let enabled = false;
  let now = 0;
  const r = rig({ configEnabled: () => enabled, clock: () => now });
  const telemetry = createTelemetry(r.options);
  telemetry.recordCall({ plugin: "x", success: true });
  now += 500;
  enabled = true;
  telemetry.recordCall({ plugin: "x", success: false }); // within the second: still off
  now += 1_000;
  telemetry.recordCall({ plugin: "x", success: true });
  await telemetry.stop();
  const [usage] = r.posts[0].events as unknown as { calls: { success: number; failure: number } }[];
  assertEquals([usage.calls.success, usage.calls.failure], [1, 0]);
});

Deno.test("calls in the second after a disable are dropped, even when it is enabled again", async () => {
  let enabled = true;
  let now = 0;
  const r = rig({ configEnabled: () => enabled, clock: () => now });
  const telemetry = createTelemetry(r.options);
  telemetry.recordCall({ plugin: "x", success: true }); // on: the hub looks (or just did)
  enabled = false; // hub telemetry disable, within that second
  for (let i = 0; i < 3; i++) telemetry.recordCall({ plugin: "x", success: false });
  now += 1_000;
  telemetry.recordCall({ plugin: "x", success: false }); // the hub looks: off
  enabled = true;
  now += 1_000;
  telemetry.recordCall({ plugin: "x", success: true });
  await telemetry.stop();
  const [usage] = r.posts[0].events as unknown as { calls: { success: number; failure: number } }[];
  assertEquals([usage.calls.success, usage.calls.failure], [1, 0]);
});

Deno.test("making the installation id logs the notice once, at info", async () => {
  let ids = 0;
  const r = rig({
    installationId: (_dir, onCreated) => {
      if (ids++ === 0) onCreated();
      return Promise.resolve(ID);
    },
  });
  const telemetry = createTelemetry(r.options);
  telemetry.started({ local: 0, npm: 0 });
  telemetry.recordCall({ plugin: "x", success: true });
  await telemetry.stop();
  const info = r.logs.filter((l) => l.startsWith("info"));
  assertEquals(info.length, 1, r.logs.join("\n"));
  assertMatch(info[0], /^info Anonymous telemetry is on: .* "hub telemetry disable"/);
});
