/// <reference lib="deno.ns" />
import { syncPlugin } from "../_test_fixtures.ts";
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import type { PanelState } from "../../shared/panel_messages.ts";
import { MAX_TABS_PER_PLUGIN, stateSummary } from "./extension_state.ts";

const tab = (tabId: number) => ({
  tabId,
  url: `http://app/${tabId}`,
  title: "x".repeat(300),
  ready: true,
});

Deno.test("stateSummary: a connected extension with a synced hub", () => {
  const state: PanelState = {
    extensionVersion: "0.1.0",
    link: { state: "connected", port: 7357, connectedAt: 1 },
    hub: {
      version: "0.1.0",
      skipPermissions: false,
      skipPermissionsForced: false,
      browserPermission: "ask",
      plugins: [
        syncPlugin("app", {
          version: "2.0.0",
          permission: "ask",
          tools: [
            { name: "a", displayName: "A", description: "", permission: "ask" },
            { name: "b", displayName: "B", description: "", permission: "off" },
          ],
        }),
        syncPlugin("idle"),
      ],
      browserTools: [],
      disabledBrowserTools: [],
      sites: { rules: [], defaultPermission: "ask", agentTabsOnly: false },
    },
    tabs: { app: { plugin: "app", state: "ready", tabs: [1, 2].map(tab) } },
    activity: [
      { id: "1", tool: "a", plugin: "app", startedAt: 1, state: "running" },
      { id: "2", tool: "a", plugin: "app", startedAt: 1, state: "waiting" },
      { id: "3", tool: "a", plugin: "app", startedAt: 1, state: "succeeded", durationMs: 3 },
    ],
    confirmations: [{
      id: "2",
      tool: "a",
      plugin: "app",
      parameters: {},
      receivedAt: 1,
      expiresAt: 2,
    }],
    progress: [],
  };
  const summary = stateSummary(state);
  assertEquals(summary.plugins[0].tabs[0].title.length, 200, "long titles are cut");
  summary.plugins[0].tabs.forEach((t) => (t.title = "x"));
  assertEquals(summary, {
    extensionVersion: "0.1.0",
    link: { state: "connected", port: 7357, problem: null },
    hubVersion: "0.1.0",
    skipPermissions: false,
    plugins: [
      {
        name: "app",
        version: "2.0.0",
        permission: "ask",
        tabState: "ready",
        tabCount: 2,
        tabs: [1, 2].map((id) => ({ ...tab(id), title: "x" })),
        tools: 2,
      },
      {
        name: "idle",
        version: "1.0.0",
        permission: "auto",
        tabState: "closed",
        tabCount: 0,
        tabs: [],
        tools: 0,
      },
    ],
    pendingConfirmations: 1,
    runningCalls: 1,
  });
});

Deno.test("stateSummary: disconnected, before any sync; many tabs are capped", () => {
  const tabs = Array.from({ length: MAX_TABS_PER_PLUGIN + 5 }, (_, i) => tab(i + 1));
  const summary = stateSummary({
    extensionVersion: "0.1.0",
    link: {
      state: "disconnected",
      problem: { kind: "not_running", message: "No hub answers.", fix: "Run hub start." },
    },
    tabs: { app: { plugin: "app", state: "unavailable", tabs } },
    activity: [],
    confirmations: [],
    progress: [],
  });
  assertEquals(summary.link, {
    state: "disconnected",
    port: null,
    problem: { kind: "not_running", message: "No hub answers.", fix: "Run hub start." },
  });
  assertEquals([summary.hubVersion, summary.skipPermissions], [null, null]);
  const [app] = summary.plugins;
  assertEquals([app.name, app.version, app.permission, app.tabState], [
    "app",
    null,
    null,
    "unavailable",
  ]);
  assertEquals([app.tabCount, app.tabs.length], [MAX_TABS_PER_PLUGIN + 5, MAX_TABS_PER_PLUGIN]);
});
