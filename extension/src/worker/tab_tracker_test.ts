/// <reference lib="deno.ns" />
import { withChrome } from "./_test_fixtures.ts";
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import type { SyncPlugin, TabStateChange } from "../../../protocol/events.ts";
import { syncPlugin } from "./_test_fixtures.ts";
import type { Injector } from "./injector.ts";
import type { AdapterResult } from "../../../protocol/adapter.ts";
import { createPluginStore, pluginMatches } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import { createTabTracker, pluginTabState } from "./tab_tracker.ts";

const plugin = (name: string, fields: Partial<SyncPlugin> = {}) =>
  syncPlugin(name, { settings: { greeting: "hi" }, ...fields });

function tab(id: number, url: string, fields: Partial<chrome.tabs.Tab> = {}): chrome.tabs.Tab {
  return {
    id,
    url,
    title: `Tab ${id}`,
    status: "complete",
    index: id,
    windowId: 1,
    active: false,
    pinned: false,
    highlighted: false,
    incognito: false,
    selected: false,
    discarded: false,
    autoDiscardable: true,
    groupId: -1,
    frozen: false,
    ...fields,
  } as chrome.tabs.Tab;
}

// ---- pluginTabState (pure) ----

Deno.test("pluginTabState: no matching tab is closed", () => {
  const app = plugin("app");
  const tabs = [tab(1, "https://elsewhere.test/"), tab(2, "chrome://newtab/")];
  assertEquals(pluginTabState(app, tabs, pluginMatches, () => true), {
    plugin: "app",
    state: "closed",
    tabs: [],
  });
  assertEquals(pluginTabState(app, [], pluginMatches, () => true).state, "closed");
});

Deno.test("pluginTabState: matching tabs that are not ready are unavailable", () => {
  const app = plugin("app");
  const tabs = [
    tab(1, "http://127.0.0.1:8000/login", { title: "Log in" }),
    tab(2, "https://x.test/"),
  ];
  assertEquals(pluginTabState(app, tabs, pluginMatches, () => false), {
    plugin: "app",
    state: "unavailable",
    tabs: [{ tabId: 1, url: "http://127.0.0.1:8000/login", title: "Log in", ready: false }],
  });
});

Deno.test("pluginTabState: one ready tab makes the plugin ready, each tab keeps its own flag", () => {
  const app = plugin("app");
  const tabs = [
    tab(3, "http://127.0.0.1:8000/login", { title: "Log in" }),
    tab(4, "http://127.0.0.1:8000/inbox", { title: "Inbox" }),
  ];
  assertEquals(pluginTabState(app, tabs, pluginMatches, (id) => id === 4), {
    plugin: "app",
    state: "ready",
    tabs: [
      { tabId: 3, url: "http://127.0.0.1:8000/login", title: "Log in", ready: false },
      { tabId: 4, url: "http://127.0.0.1:8000/inbox", title: "Inbox", ready: true },
    ],
  });
});

Deno.test("pluginTabState: excluded URLs, tabs without an id and missing title are handled", () => {
  const app = plugin("app", { excludePatterns: ["http://127.0.0.1/admin/*"] });
  const tabs = [
    tab(1, "http://127.0.0.1:8000/admin/users"),
    tab(-1, "http://127.0.0.1:8000/devtools"), // TAB_ID_NONE
    { ...tab(2, "http://127.0.0.1:8000/"), id: undefined },
    { ...tab(5, "http://127.0.0.1:8000/"), title: undefined },
  ];
  assertEquals(pluginTabState(app, tabs, pluginMatches, () => true), {
    plugin: "app",
    state: "ready",
    tabs: [{ tabId: 5, url: "http://127.0.0.1:8000/", title: "", ready: true }],
  });
  // Only the excluded tab: closed.
  assertEquals(pluginTabState(app, [tabs[0]], pluginMatches, () => true).state, "closed");
});

Deno.test("pluginTabState: the matcher decides, and isReady is asked per tab id", () => {
  const asked: number[] = [];
  const state = pluginTabState(
    plugin("app"),
    [tab(1, "a"), tab(2, "b")],
    (_plugin, url) => url === "b",
    (id) => {
      asked.push(id);
      return false;
    },
  );
  assertEquals(state.tabs.map((t) => t.tabId), [2]);
  assertEquals(asked, [2]);
});

// ---- createTabTracker with a fake chrome ----

interface ScriptCall {
  tabId: number;
  plugin: unknown;
  resolve(ready: boolean | "throw"): void;
}

/** A fake Chromium: `tabs` is what tabs.query returns; each probe waits until the test answers. */
function fakeBrowser(tabs: chrome.tabs.Tab[]) {
  const probes: ScriptCall[] = [];
  /** Probes answer at once with this when set (per tab id); otherwise they wait. */
  const autoAnswer = new Map<number, boolean>();
  const chromeFake = {
    tabs: { query: () => Promise.resolve([...tabs]) },
    scripting: {
      executeScript: (injection: { target: { tabId: number }; args?: unknown[] }) =>
        new Promise((resolve, reject) => {
          const call: ScriptCall = {
            tabId: injection.target.tabId,
            plugin: injection.args?.[2],
            resolve: (ready) =>
              ready === "throw"
                ? reject(new Error("Frame with ID 0 was removed."))
                : resolve([{ frameId: 0, result: { ok: true, value: ready } }]),
          };
          probes.push(call);
          const auto = autoAnswer.get(call.tabId);
          if (auto !== undefined) call.resolve(auto);
        }),
    },
  };
  return { chromeFake, probes, autoAnswer };
}

function fakeInjector() {
  const ensured: [number, string][] = [];
  const forgotten: number[] = [];
  const injector: Injector = {
    ensure: (tabId, p) => {
      ensured.push([tabId, p.name]);
      return Promise.resolve(true);
    },
    // The door's isReady, through the fake browser's executeScript (it reads the plugin at [2]).
    probe: async (tabId, p) => {
      const injection = { target: { tabId }, args: ["key", "secret", p.name] };
      const [frame] = await chrome.scripting.executeScript(injection as never);
      return frame.result as AdapterResult;
    },
    remove: () => Promise.resolve(),
    forget: (tabId) => void forgotten.push(tabId),
  };
  return { injector, ensured, forgotten };
}

function fakePeer() {
  const notified: [string, unknown][] = [];
  const requested: [string, TabStateChange][] = [];
  const peer = {
    receive() {},
    close() {},
    notify: (method: string, params: unknown) => void notified.push([method, params]),
    request: (method: string, params: TabStateChange) => {
      requested.push([method, params]);
      return Promise.resolve({ ok: true });
    },
  } as unknown as RpcPeer;
  return { peer, notified, requested };
}

/** Lets the tracker's 0 ms report timer (and the query after it) run. */
async function settle() {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

function setup(tabs: chrome.tabs.Tab[], plugins: SyncPlugin[] = [plugin("app")]) {
  const browser = fakeBrowser(tabs);
  const store = createPluginStore();
  store.replace(plugins);
  const inj = fakeInjector();
  const link = fakePeer();
  let connected: RpcPeer | undefined = link.peer;
  const tracker = createTabTracker(store, inj.injector, () => connected, pluginMatches);
  const disconnect = () => (connected = undefined);
  return { ...browser, store, ...inj, ...link, tracker, disconnect };
}

Deno.test("refreshTab probes a complete matching tab for each matching plugin", async () => {
  const t = setup([], [plugin("app"), plugin("other", { urlPatterns: ["https://x.test/*"] })]);
  await withChrome(t.chromeFake, async () => {
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/inbox"));
    assertEquals(t.ensured, [[1, "app"]]);
    assertEquals(t.probes.map((p) => [p.tabId, p.plugin]), [[1, "app"]]);
    assert(t.tracker.isReady(1, "app"));
    assert(!t.tracker.isReady(1, "other"));
    await settle();
  });
});

Deno.test("refreshTab does not probe a tab that is still loading", async () => {
  const t = setup([]);
  await withChrome(t.chromeFake, async () => {
    await t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/", { status: "loading" }));
    await t.tracker.refreshTab(tab(2, "https://not-matching.test/"));
    await t.tracker.refreshTab({ ...tab(3, "http://127.0.0.1:8000/"), id: undefined });
    assertEquals(t.probes, []);
    assertEquals(t.ensured, []);
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/", { status: "complete" }));
    assertEquals(t.probes.length, 1);
    assert(t.tracker.isReady(1, "app"));
    await settle();
  });
});

Deno.test("a probe that fails or answers false leaves the tab not ready", async () => {
  const t = setup([]);
  await withChrome(t.chromeFake, async () => {
    const failing = t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/"));
    await settle();
    t.probes[0].resolve("throw");
    await failing;
    assert(!t.tracker.isReady(1, "app"));
    t.autoAnswer.set(1, false);
    await t.tracker.reprobe(1, "app");
    assert(!t.tracker.isReady(1, "app"));
    t.autoAnswer.set(1, true);
    await t.tracker.reprobe(1, "app");
    assert(t.tracker.isReady(1, "app"));
    await t.tracker.reprobe(1, "unknown-plugin"); // no such plugin: nothing probed
    assertEquals(t.probes.length, 3);
    await settle();
  });
});

Deno.test("a probe that finishes after navigated() is ignored", async () => {
  const t = setup([]);
  await withChrome(t.chromeFake, async () => {
    const refreshing = t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/inbox"));
    await settle();
    assertEquals(t.probes.length, 1);
    t.tracker.navigated(1); // the old document is gone while the probe runs
    t.probes[0].resolve(true);
    await refreshing;
    assert(!t.tracker.isReady(1, "app"), "the old document's answer must not count");

    // A probe of the new document counts again.
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/inbox"));
    assert(t.tracker.isReady(1, "app"));
    t.tracker.navigated(1);
    assert(!t.tracker.isReady(1, "app"), "navigation forgets readiness at once");
    await settle();
  });
});

Deno.test("a tab whose URL stops matching drops its readiness", async () => {
  const t = setup([]);
  await withChrome(t.chromeFake, async () => {
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tab(1, "http://127.0.0.1:8000/"));
    assert(t.tracker.isReady(1, "app"));
    await t.tracker.refreshTab(tab(1, "https://elsewhere.test/", { status: "loading" }));
    assert(!t.tracker.isReady(1, "app"));
    await settle();
  });
});

Deno.test("syncAll sends tab.syncAll; later changes go out once each as tab.stateChanged", async () => {
  const tabs = [tab(1, "http://127.0.0.1:8000/inbox", { title: "Inbox" })];
  const t = setup(tabs, [plugin("app"), plugin("other", { urlPatterns: ["https://x.test/*"] })]);
  await withChrome(t.chromeFake, async () => {
    await t.tracker.syncAll(t.peer);
    assertEquals(t.notified, [["tab.syncAll", {
      plugins: [
        {
          plugin: "app",
          state: "unavailable",
          tabs: [{ tabId: 1, url: "http://127.0.0.1:8000/inbox", title: "Inbox", ready: false }],
        },
        { plugin: "other", state: "closed", tabs: [] },
      ],
    }]]);

    // Nothing changed since the sync: a report sends nothing.
    t.tracker.report();
    await settle();
    assertEquals(t.requested, []);

    // The probe finds the page ready: one tab.stateChanged for app, none for other.
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tabs[0]);
    await settle();
    assertEquals(t.requested, [["tab.stateChanged", {
      plugin: "app",
      state: "ready",
      tabs: [{ tabId: 1, url: "http://127.0.0.1:8000/inbox", title: "Inbox", ready: true }],
    }]]);

    // Same state again (another probe, more reports): no duplicate.
    await t.tracker.reprobe(1, "app");
    t.tracker.report();
    t.tracker.report();
    await settle();
    assertEquals(t.requested.length, 1);

    // The title changes: the tab fields are part of the state, so it is sent.
    tabs[0] = { ...tabs[0], title: "Inbox (1)" };
    t.tracker.report();
    await settle();
    assertEquals(t.requested.length, 2);
    assertEquals(t.requested[1][1].tabs[0].title, "Inbox (1)");

    // The tab closes: app becomes closed, sent once.
    tabs.length = 0;
    t.tracker.removed(1);
    await settle();
    t.tracker.report();
    await settle();
    assertEquals(t.requested.slice(2), [["tab.stateChanged", {
      plugin: "app",
      state: "closed",
      tabs: [],
    }]]);
    assertEquals(t.forgotten, [1]);
    assert(!t.tracker.isReady(1, "app"));
  });
});

Deno.test("while disconnected nothing is sent; a new syncAll starts from the full mapping", async () => {
  const tabs = [tab(1, "http://127.0.0.1:8000/")];
  const t = setup(tabs);
  await withChrome(t.chromeFake, async () => {
    t.disconnect();
    t.autoAnswer.set(1, true);
    await t.tracker.refreshTab(tabs[0]);
    await settle();
    assertEquals(t.requested, []);
    await t.tracker.syncAll(t.peer);
    const [[method, params]] = t.notified;
    assertEquals(method, "tab.syncAll");
    assertEquals((params as { plugins: TabStateChange[] }).plugins[0].state, "ready");
  });
});

Deno.test("a failed tab.stateChanged is sent again with the next report", async () => {
  const tabs = [tab(1, "http://127.0.0.1:8000/")];
  const t = setup(tabs);
  await withChrome(t.chromeFake, async () => {
    await t.tracker.syncAll(t.peer);
    let fail = true;
    const sent: string[] = [];
    (t.peer as { request: unknown }).request = (_method: string, change: TabStateChange) => {
      sent.push(change.state);
      return fail ? Promise.reject(new Error("link closed")) : Promise.resolve({ ok: true });
    };
    const warn = console.warn;
    console.warn = () => {};
    try {
      t.autoAnswer.set(1, true);
      await t.tracker.refreshTab(tabs[0]);
      await settle();
      assertEquals(sent, ["ready"]);
      fail = false;
      t.tracker.report();
      await settle();
      assertEquals(sent, ["ready", "ready"]);
      t.tracker.report();
      await settle();
      assertEquals(sent, ["ready", "ready"]);
    } finally {
      console.warn = warn;
    }
  });
});

Deno.test("refreshAll probes every complete tab from tabs.query", async () => {
  const tabs = [
    tab(1, "http://127.0.0.1:8000/a"),
    tab(2, "http://localhost:8000/b"),
    tab(3, "http://127.0.0.1:8000/c", { status: "loading" }),
    tab(4, "https://x.test/"),
  ];
  const t = setup(tabs, [
    plugin("app", { urlPatterns: ["http://127.0.0.1/*", "http://localhost/*"] }),
  ]);
  await withChrome(t.chromeFake, async () => {
    for (const id of [1, 2]) t.autoAnswer.set(id, id === 2);
    await t.tracker.refreshAll();
    assertEquals(t.probes.map((p) => p.tabId).sort(), [1, 2]);
    assert(!t.tracker.isReady(1, "app"));
    assert(t.tracker.isReady(2, "app"));
    await settle();
  });
});
