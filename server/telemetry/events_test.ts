import { assertEquals } from "../../tests/helpers/assert.ts";
import { VERSION } from "../../protocol/version.ts";
import { hubStartedEvent, usageEvent } from "./events.ts";

const ID = "0b8a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d";
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

Deno.test("hub_started holds the envelope, the platform, the mode and plugin counts", () => {
  const event = hubStartedEvent(ID, NOW, { mode: "dev", plugins: { local: 2, npm: 1 } });
  assertEquals(event, {
    event: "hub_started",
    installationId: ID,
    time: "2026-01-02T03:04:00.000Z",
    version: VERSION,
    os: Deno.build.os,
    arch: Deno.build.arch,
    runtime: `deno ${Deno.version.deno}`,
    mode: "dev",
    plugins: { local: 2, npm: 1 },
  });
});

Deno.test("usage holds counts only; unknown keys and bad numbers never get through", () => {
  const calls = {
    success: 4,
    failure: 2,
    byCategory: { validation: 1, other: 1, "/home/me/secret": 5 } as Record<string, number>,
    byKind: { plugin: 5, browser: 1, "my-app": 9 } as Record<string, number>,
  };
  const event = usageEvent(ID, NOW, 3_600_000, calls);
  assertEquals(event, {
    event: "usage",
    installationId: ID,
    time: "2026-01-02T03:04:00.000Z",
    version: VERSION,
    periodMinutes: 60,
    calls: {
      success: 4,
      failure: 2,
      byCategory: { validation: 1, other: 1 },
      byKind: { plugin: 5, browser: 1 },
    },
  });
  const odd = usageEvent(ID, NOW, -5, { success: NaN, failure: 1.5, byCategory: {}, byKind: {} });
  assertEquals([odd.periodMinutes, odd.calls.success, odd.calls.failure], [0, 0, 0]);
});
