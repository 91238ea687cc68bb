/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { EXTENSION_TO_HUB_METHODS } from "../../../protocol/events.ts";
import { syncPlugin } from "./_test_fixtures.ts";
import { handlePageEvent as handle, type PageEventDeps } from "./page_events.ts";
import { createPluginStore } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import type { TabTracker } from "./tab_tracker.ts";

const plugin = (name: string, urlPatterns: string[]) => syncPlugin(name, { urlPatterns });

/** Real store with two plugins on different sites; fake tracker and peer that record calls. */
function setup() {
  const store = createPluginStore();
  store.replace([
    plugin("app", ["http://127.0.0.1/*"]),
    plugin("other", ["https://other.test/*"]),
  ]);
  const notified: [string, unknown][] = [];
  const reprobed: [number, string][] = [];
  const peer = {
    notify: (method: string, params: unknown) => void notified.push([method, params]),
  } as unknown as RpcPeer;
  const urls = new Map([[9, "http://127.0.0.1:8000/inbox"], [3, "https://other.test/home"]]);
  const tracker = {
    urlOf: (tabId: number) => urls.get(tabId),
    reprobe: (tabId: number, name: string) => {
      reprobed.push([tabId, name]);
      return Promise.resolve();
    },
  } as unknown as TabTracker;
  let connected: RpcPeer | undefined = peer;
  const deps: PageEventDeps = { store, tracker, peer: () => connected };
  return { deps, notified, reprobed, disconnect: () => (connected = undefined) };
}

const appTab = {
  tab: { id: 9, url: "http://127.0.0.1:8000/inbox" },
} as chrome.runtime.MessageSender;
const PAGE_EVENT_MESSAGE = "page-event";
/** An event as it came out of the door of `event.plugin` (the door decides the plugin). */
const message = (event: Record<string, unknown>) => ({ type: PAGE_EVENT_MESSAGE, event });

/** Hands `m.event` on as coming from the door of its `plugin` in the sender's tab. */
function handlePageEvent(
  m: unknown,
  sender: chrome.runtime.MessageSender,
  deps: PageEventDeps,
): void {
  const event = (m as { event?: { plugin?: unknown } } | null)?.event;
  const plugin = typeof event?.plugin === "string" ? event.plugin : "";
  handle(sender.tab?.id ?? -1, plugin, event, deps);
}

Deno.test("progress becomes a tool.progress notification with its fields", () => {
  const t = setup();
  handlePageEvent(
    message({
      kind: "progress",
      plugin: "app",
      dispatchId: "d-1",
      progress: 2,
      total: 5,
      message: "Reading page 2",
    }),
    appTab,
    t.deps,
  );
  handlePageEvent(
    message({ kind: "progress", plugin: "app", dispatchId: "d-2", progress: 0.5 }),
    appTab,
    t.deps,
  );
  assertEquals(t.notified, [
    ["tool.progress", { dispatchId: "d-1", progress: 2, total: 5, message: "Reading page 2" }],
    ["tool.progress", { dispatchId: "d-2", progress: 0.5 }],
  ]);
});

Deno.test("progress without a dispatch id or a finite number is dropped; bad extras are left out", () => {
  const t = setup();
  const send = (event: Record<string, unknown>) =>
    handlePageEvent(message({ kind: "progress", plugin: "app", ...event }), appTab, t.deps);
  send({ progress: 1 });
  send({ dispatchId: 7, progress: 1 });
  send({ dispatchId: "d", progress: "1" });
  send({ dispatchId: "d", progress: Infinity });
  send({ dispatchId: "d", progress: NaN });
  assertEquals(t.notified, []);
  send({ dispatchId: "d", progress: 3, total: "10", message: 42 });
  assertEquals(t.notified, [["tool.progress", { dispatchId: "d", progress: 3 }]]);
});

Deno.test("log becomes plugin.log with only the valid entries", () => {
  const t = setup();
  handlePageEvent(
    message({
      kind: "log",
      plugin: "app",
      entries: [
        { level: "info", message: "loaded", timestamp: 1 },
        { level: "loud", message: "bad level" },
        { level: "warn", message: 12 },
        null,
        "text",
        { level: "error", message: "failed", timestamp: 2, data: { status: 500 } },
      ],
    }),
    appTab,
    t.deps,
  );
  assertEquals(t.notified, [["plugin.log", {
    plugin: "app",
    tabId: 9,
    entries: [
      { level: "info", message: "loaded", timestamp: 1 },
      { level: "error", message: "failed", timestamp: 2, data: { status: 500 } },
    ],
  }]]);
});

Deno.test("a log event with no valid entries sends nothing", () => {
  const t = setup();
  for (const entries of [[], [{ level: "nope", message: "x" }], "not a list", undefined]) {
    handlePageEvent(message({ kind: "log", plugin: "app", entries }), appTab, t.deps);
  }
  assertEquals(t.notified, []);
});

Deno.test("at most 1000 log entries travel per event", () => {
  const t = setup();
  const entries = Array.from({ length: 1500 }, (_, i) => ({ level: "debug", message: `#${i}` }));
  handlePageEvent(message({ kind: "log", plugin: "app", entries }), appTab, t.deps);
  const [[, params]] = t.notified as [string, { entries: { message: string }[] }][];
  assertEquals(params.entries.length, 1000);
  assertEquals(params.entries.at(-1)?.message, "#999");
});

Deno.test("readiness asks the tracker to probe that plugin in the sender's tab", () => {
  const t = setup();
  handlePageEvent(message({ kind: "readiness", plugin: "app" }), appTab, t.deps);
  assertEquals(t.reprobed, [[9, "app"]]);
  assertEquals(t.notified, []);
});

Deno.test("readiness still reprobes while disconnected; progress and logs are dropped", () => {
  const t = setup();
  t.disconnect();
  handlePageEvent(message({ kind: "readiness", plugin: "app" }), appTab, t.deps);
  handlePageEvent(
    message({ kind: "progress", plugin: "app", dispatchId: "d", progress: 1 }),
    appTab,
    t.deps,
  );
  handlePageEvent(
    message({ kind: "log", plugin: "app", entries: [{ level: "info", message: "x" }] }),
    appTab,
    t.deps,
  );
  assertEquals(t.reprobed, [[9, "app"]]);
  assertEquals(t.notified, []);
});

Deno.test("events for a plugin that does not match the sender tab's URL are ignored", () => {
  const t = setup();
  const events = [
    { kind: "readiness", plugin: "other" },
    { kind: "progress", plugin: "other", dispatchId: "d", progress: 1 },
    { kind: "log", plugin: "other", entries: [{ level: "info", message: "spoofed" }] },
    { kind: "log", plugin: "unknown", entries: [{ level: "info", message: "spoofed" }] },
  ];
  for (const event of events) handlePageEvent(message(event), appTab, t.deps);
  // The same events from a tab of the other site do count.
  const otherTab = {
    tab: { id: 3, url: "https://other.test/home" },
  } as chrome.runtime.MessageSender;
  handlePageEvent(message(events[0]), otherTab, t.deps);
  handlePageEvent(message(events[2]), otherTab, t.deps);
  assertEquals(t.reprobed, [[3, "other"]]);
  assertEquals(t.notified, [["plugin.log", {
    plugin: "other",
    tabId: 3,
    entries: [{ level: "info", message: "spoofed" }],
  }]]);
});

Deno.test("junk events and events from a tab of unknown URL are ignored", () => {
  const t = setup();
  const good = message({ kind: "readiness", plugin: "app" });
  const junk: unknown[] = [
    undefined,
    null,
    "hub-page-event",
    42,
    {},
    { type: PAGE_EVENT_MESSAGE },
    { type: PAGE_EVENT_MESSAGE, event: null },
    { type: PAGE_EVENT_MESSAGE, event: "readiness" },
    { type: PAGE_EVENT_MESSAGE, event: { kind: "readiness" } },
    { type: PAGE_EVENT_MESSAGE, event: { kind: "readiness", plugin: 5 } },
    { type: PAGE_EVENT_MESSAGE, event: { kind: "explode", plugin: "app" } },
  ];
  for (const m of junk) handlePageEvent(m, appTab, t.deps);
  // A good event from a tab the tracker knows no URL of.
  handlePageEvent(good, { tab: { id: 77 } } as chrome.runtime.MessageSender, t.deps);
  assertEquals(t.reprobed, []);
  assertEquals(t.notified, []);
  // And the good one does work from the tab (the junk above was not ignored by accident).
  handlePageEvent(good, appTab, t.deps);
  assertEquals(t.reprobed, [[9, "app"]]);
});

// The hub validates plugin.log against EXTENSION_TO_HUB_METHODS and drops a whole batch with one bad
// field, so the extension must only ever send entries that pass.
Deno.test({
  name: "whatever a page sends, the notifications that go out pass the hub's schemas",
}, () => {
  const t = setup();
  handlePageEvent(
    message({
      kind: "log",
      plugin: "app",
      entries: [
        { level: "info", message: "fine", timestamp: 1 },
        { level: "info", message: "bad time", timestamp: "now" },
      ],
    }),
    appTab,
    t.deps,
  );
  handlePageEvent(
    message({ kind: "progress", plugin: "app", dispatchId: "d", progress: 1, total: 2 }),
    appTab,
    t.deps,
  );
  assertEquals(t.notified.length, 2);
  for (const [method, params] of t.notified) {
    const schema = EXTENSION_TO_HUB_METHODS[method as "plugin.log" | "tool.progress"].params;
    const parsed = schema.safeParse(params);
    assertEquals(parsed.success, true, `${method}: ${parsed.error?.message}`);
  }
});
