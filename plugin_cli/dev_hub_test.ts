import { assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import type { FileWatcherEvent, HealthPayload, PluginDetail } from "../protocol/health.ts";
import { describeWatched, waitForWatcher, watchesPlugin } from "./dev_hub.ts";

/** The parts of `/health` the build reads. */
function health(over: {
  mode?: "dev" | "production";
  plugins?: Partial<PluginDetail>[];
  lastEvent?: FileWatcherEvent | null;
  failed?: { path: string; error: string }[];
}): HealthPayload {
  const mode = over.mode ?? "dev";
  return {
    mode,
    pluginDetails: over.plugins ?? [{ name: "notes", source: "local", toolCount: 2 }],
    failedPlugins: over.failed ?? [],
    fileWatcher: mode === "dev"
      ? {
        watchedPlugins: 1,
        pendingPlugins: 0,
        lastPollAt: null,
        pollDetections: 0,
        lastEvent: over.lastEvent ?? null,
      }
      : undefined,
  } as HealthPayload;
}

const event = (outcome: string, at: number, plugin = "notes"): FileWatcherEvent => ({
  kind: "plugin",
  plugin,
  at,
  outcome,
});

Deno.test("the build leaves a plugin to the watcher of a dev-mode hub that serves it locally", () => {
  assertEquals(watchesPlugin(health({}), "notes"), true);
  assertEquals(watchesPlugin(health({ mode: "production" }), "notes"), false);
  assertEquals(watchesPlugin(health({}), "other"), false, "not served yet: a reload finds it");
  const fromPackage = health({ plugins: [{ name: "notes", source: "npm", toolCount: 1 }] });
  assertEquals(watchesPlugin(fromPackage, "notes"), false, "a package is not watched");
});

Deno.test("waitForWatcher returns the first event on the plugin at or after the build", async () => {
  const answers = [
    health({ lastEvent: event("reloaded", 50) }), // an earlier build
    health({ lastEvent: event("reloaded", 120, "other") }), // another plugin
    health({ lastEvent: { kind: "config", at: 130, outcome: "applied" } }),
    health({ lastEvent: event("reloaded", 140) }),
  ];
  let reads = 0;
  const seen = await waitForWatcher(() => Promise.resolve(answers[reads++]), "notes", 100, {
    intervalMs: 1,
  });
  assertEquals(reads, 4);
  assertEquals(seen?.event.at, 140);
});

Deno.test("waitForWatcher gives up after its time, or when the hub is gone", async () => {
  let now = 0;
  const clock = () => now;
  const stale = () => {
    now += 400;
    return Promise.resolve(health({ lastEvent: event("reloaded", 5) }));
  };
  assertEquals(
    await waitForWatcher(stale, "notes", 10, { clock, intervalMs: 1, timeoutMs: 3_000 }),
    undefined,
  );
  assertEquals(now, 3_200, "it read until the time was up");
  const gone = await waitForWatcher(() => Promise.resolve(undefined), "notes", 10, {
    intervalMs: 1,
  });
  assertEquals(gone, undefined);
});

Deno.test("describeWatched says what the dev-mode hub did with the build", () => {
  const say = (outcome: string, over: Parameters<typeof health>[0] = {}) =>
    describeWatched({ event: event(outcome, 1), health: health(over) }, "notes", "/p/notes");
  assertMatch(say("reloaded"), /reloaded "notes" alone: it serves 2 tools.*without a page reload/);
  assertMatch(say("unchanged"), /already serves this build of "notes": no change/);
  assertMatch(say("full-reload"), /reloaded every plugin and serves 2 tools of "notes"/);
  const failed = [{ path: "/p/notes/", error: "dist/tools.json is broken (the last good…)" }];
  assertMatch(say("failed", { failed }), /cannot load the new build: dist\/tools\.json is broken/);
  assertMatch(say("error"), /could not react to the build \(error\); "hub logs" says why/);
});
