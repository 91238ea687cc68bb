/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { commandProblem, createPanelHub } from "./panel_hub.ts";
import { PANEL_PORT, type PanelCommand, type PanelState } from "../shared/panel_messages.ts";

Deno.test("commands the panel may send are accepted; anything else says what is missing", () => {
  const ok = (command: unknown) => commandProblem({ requestId: 1, command });
  assertEquals(ok({ type: "setPluginPermission", plugin: "x", permission: "ask" }), undefined);
  assertEquals(
    ok({ type: "setToolPermission", plugin: "x", tool: "t", permission: "off" }),
    undefined,
  );
  assertEquals(ok({ type: "setSkipPermissions", enabled: true }), undefined);
  assertEquals(ok({ type: "setDebugger", mode: "off" }), undefined);
  assertEquals(ok({ type: "setDebugger", mode: "on" }), "needs mode (auto or off)");
  assertEquals(ok({ type: "confirm", id: "c", decision: "deny" }), undefined);
  assertEquals(ok({ type: "reconnect" }), undefined);
  assertEquals(
    ok({ type: "setPluginPermission", plugin: "x", permission: "always" }),
    "needs plugin, permission",
  );
  assertEquals(
    ok({ type: "confirm", id: "c", decision: "maybe" }),
    "needs id and decision (allow or deny)",
  );
  assertEquals(ok({ type: "searchPlugins" }), undefined);
  assertEquals(ok({ type: "searchPlugins", query: "notes" }), undefined);
  assertEquals(ok({ type: "searchPlugins", query: 3 }), "query is text of at most 200");
  assertEquals(ok({ type: "installPlugin", name: "hub-plugin-a" }), undefined);
  assertEquals(ok({ type: "updatePlugin", name: "" }), "needs name (1-214 characters)");
  assertEquals(
    ok({ type: "removePlugin", name: "x".repeat(215) }),
    "needs name (1-214 characters)",
  );
  assertEquals(ok({ type: "checkUpdates" }), undefined);
  assertEquals(ok({ type: "openFolder", path: "/home/me/plugin" }), undefined);
  assertEquals(ok({ type: "openFolder" }), "needs path");
  assertEquals(ok({ type: "setPluginSettings", plugin: "x", settings: { a: 1 } }), undefined);
  assertEquals(
    ok({ type: "setPluginSettings", plugin: "x", settings: [1] }),
    "needs plugin and settings (an object)",
  );
  assertEquals(
    ok({ type: "setSitePermission", pattern: "*.example.com", permission: "auto" }),
    undefined,
  );
  assertEquals(
    ok({ type: "setSitePermission", pattern: "example.com", permission: null }),
    undefined,
  );
  const sitePermission = "needs pattern (1-300 characters) and permission (off, ask, auto or null)";
  assertEquals(ok({ type: "setSitePermission", pattern: "", permission: "off" }), sitePermission);
  assertEquals(
    ok({ type: "setSitePermission", pattern: "x".repeat(301), permission: "off" }),
    sitePermission,
  );
  assertEquals(
    ok({ type: "setSitePermission", pattern: "a.com", permission: "yes" }),
    sitePermission,
  );
  assertEquals(ok({ type: "setSiteDefaults", defaultSitePermission: "ask" }), undefined);
  assertEquals(ok({ type: "setSiteDefaults", agentTabsOnly: true }), undefined);
  const defaults = "needs defaultSitePermission (off, ask or auto) or agentTabsOnly (boolean)";
  assertEquals(ok({ type: "setSiteDefaults" }), defaults);
  assertEquals(ok({ type: "setSiteDefaults", agentTabsOnly: "yes" }), defaults);
  assertEquals(ok({ type: "explode" }), 'unknown command "explode"');
  assertEquals(
    commandProblem({ command: { type: "reconnect" } }),
    "a panel message needs a numeric requestId",
  );
});

/** A runtime port double: what the hub posts, and a way to send it messages. */
function fakePort(name = PANEL_PORT) {
  const posted: unknown[] = [];
  const listeners: { message: ((m: unknown) => void)[]; disconnect: (() => void)[] } = {
    message: [],
    disconnect: [],
  };
  const port = {
    name,
    postMessage: (m: unknown) => posted.push(m),
    disconnect: () => {},
    onMessage: { addListener: (f: (m: unknown) => void) => listeners.message.push(f) },
    onDisconnect: { addListener: (f: () => void) => listeners.disconnect.push(f) },
  } as unknown as chrome.runtime.Port;
  return {
    port,
    posted,
    send: (m: unknown) => listeners.message.forEach((f) => f(m)),
    disconnect: () => listeners.disconnect.forEach((f) => f()),
  };
}

const tick = (ms = 40) => new Promise((r) => setTimeout(r, ms));

Deno.test("a panel gets the state on connect and after changes; commands get replies", async () => {
  const outsider = fakePort();
  let version = 0;
  const ran: PanelCommand[] = [];
  let opened = 0;
  const hub = createPanelHub({
    state: () => Promise.resolve({ extensionVersion: String(++version) } as PanelState),
    run: (command) => {
      ran.push(command);
      if (command.type === "reconnect") return Promise.reject(new Error("no"));
      if (command.type === "checkUpdates") {
        return Promise.reject(Object.assign(new Error("registry down"), { code: "REGISTRY_DOWN" }));
      }
      if (command.type === "searchPlugins") return Promise.resolve({ query: "", packages: [] });
      return Promise.resolve();
    },
    onOpen: () => opened++,
    warn: () => {},
    isPanelPage: (port) => port !== outsider.port,
  });
  assertEquals(hub.accept(fakePort("hub-page").port), false);
  assertEquals(hub.accept(outsider.port), true, "taken, but refused");
  assertEquals(hub.isOpen(), false);
  const panel = fakePort();
  assertEquals(hub.accept(panel.port), true);
  assertEquals([hub.isOpen(), opened], [true, 1]);
  await tick();
  hub.changed();
  hub.changed(); // coalesced with the first
  await tick();
  assertEquals(panel.posted.length, 2);
  // A slow change (the activity list) waits; a normal one brings the push forward.
  hub.changed(10_000);
  await tick();
  assertEquals(panel.posted.length, 2, "the slow change waits");
  hub.changed();
  hub.changed(10_000); // covered by the sooner push
  await tick();
  assertEquals(panel.posted.length, 3);
  panel.send({ requestId: 7, command: { type: "setSkipPermissions", enabled: false } });
  panel.send({ requestId: 8, command: { type: "reconnect" } });
  panel.send({ requestId: 9, command: { type: "bogus" } });
  panel.send({ requestId: 10, command: { type: "searchPlugins" } });
  panel.send({ requestId: 11, command: { type: "checkUpdates" } });
  await tick();
  const replies = panel.posted.slice(3) as { requestId: number }[];
  assertEquals(replies.sort((a, b) => a.requestId - b.requestId), [
    { type: "reply", requestId: 7, ok: true },
    { type: "reply", requestId: 8, ok: false, error: "no" },
    { type: "reply", requestId: 9, ok: false, error: 'Bad command: unknown command "bogus".' },
    { type: "reply", requestId: 10, ok: true, result: { query: "", packages: [] } },
    { type: "reply", requestId: 11, ok: false, error: "registry down", code: "REGISTRY_DOWN" },
  ]);
  assertEquals(ran.length, 4);
  panel.disconnect();
  assertEquals(hub.isOpen(), false);
});
