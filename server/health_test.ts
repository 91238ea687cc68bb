import { assertEquals } from "../tests/helpers/assert.ts";
import { buildHealth, type HealthFacts, idleSubsystemFacts } from "./health.ts";
import { SDK_VERSION, STATE_SCHEMA_VERSION, VERSION } from "../protocol/version.ts";

function facts(over: Partial<HealthFacts> = {}): HealthFacts {
  return {
    mode: "production",
    startedAt: 1_000,
    now: 13_500,
    skipPermissions: false,
    reloads: { count: 2, lastTimestamp: 5, lastDurationMs: 7 },
    ...idleSubsystemFacts(),
    ...over,
  };
}

Deno.test("health reports versions, uptime in seconds, reloads, and no fileWatcher in production", () => {
  const h = buildHealth(facts());
  assertEquals([h.status, h.version, h.sdkVersion], ["ok", VERSION, SDK_VERSION]);
  assertEquals(h.stateSchemaVersion, STATE_SCHEMA_VERSION);
  assertEquals(h.uptime, 12.5);
  assertEquals([h.reloadCount, h.lastReloadTimestamp, h.lastReloadDurationMs], [2, 5, 7]);
  assertEquals(h.extensionConnected, false);
  assertEquals("fileWatcher" in h, false);
});

Deno.test("health derives counts from plugins and browser tools; dev mode adds fileWatcher", () => {
  const plugin = {
    name: "demo",
    displayName: "Demo",
    toolCount: 3,
    tools: ["demo__a", "demo__b", "demo__c"],
    tabState: "ready" as const,
    tabs: [],
    source: "local" as const,
    sdkVersion: null,
    logBufferSize: 0,
  };
  const h = buildHealth(
    facts({
      mode: "dev",
      plugins: [plugin],
      browserToolNames: ["browser_list_tabs"],
      extensionConnections: 1,
    }),
  );
  assertEquals([h.plugins, h.pluginToolCount, h.browserToolCount, h.toolCount], [1, 3, 1, 4]);
  assertEquals(h.extensionConnected, true);
  assertEquals(h.fileWatcher?.lastPollAt, null);
});

Deno.test("health says the debugger setting when the hub knows it", () => {
  assertEquals(buildHealth(facts({ debugger: "off" })).debugger, "off");
  assertEquals("debugger" in buildHealth(facts()), false);
});
