/** What a connect and a disconnect of the extension do, over a fake link. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { ConfigChanges } from "../changes/config_changes_interface.ts";
import { applyLinkPolicy } from "./link_policy.ts";
import { createTabStates } from "../plugins/tab_states.ts";

function setup() {
  const listeners = { connect: [] as (() => void)[], disconnect: [] as (() => void)[] };
  const sent: { method: string; params: unknown }[] = [];
  const failed: string[] = [];
  const state = { plugins: [], permissions: {} } as unknown as ReturnType<ConfigChanges["state"]>;
  const tabs = createTabStates();
  tabs.set({
    plugin: "demo",
    state: "ready",
    tabs: [{ tabId: 4, url: "u", title: "t", ready: true }],
  });
  applyLinkPolicy({
    link: {
      notify: (method, params) => (sent.push({ method, params }), true),
      onConnect: (l) => void listeners.connect.push(l),
      onDisconnect: (l) => void listeners.disconnect.push(l),
    },
    changes: { state: () => state },
    tabs,
    confirmations: { failAll: (reason) => void failed.push(reason) },
  });
  return { listeners, sent, failed, state, tabs };
}

Deno.test("on connect the extension gets the full state (sync.full)", () => {
  const { listeners, sent, failed, state, tabs } = setup();
  listeners.connect.forEach((l) => l());
  assertEquals(sent, [{ method: "sync.full", params: state }]);
  assertEquals(failed, []);
  assertEquals(tabs.of("demo").state, "ready");
});

Deno.test("on disconnect the tab states are forgotten and waiting confirmations fail", () => {
  const { listeners, sent, failed, tabs } = setup();
  listeners.disconnect.forEach((l) => l());
  assertEquals(tabs.of("demo"), { state: "closed", tabs: [] });
  assertEquals(failed, ["the connection closed"]);
  assertEquals(sent, []);
});
