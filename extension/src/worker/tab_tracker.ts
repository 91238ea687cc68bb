/**
 * Each plugin's tab state (docs/extension.md, "Tab states"): which open tabs match the plugin and
 * whether its `isReady()` holds there (probed with a 5 s limit). Tabs are probed when they finish
 * loading, on tab and window events, when a page asks (`notifyReadinessChanged`), and when the hub
 * sends plugins. The hub hears `tab.syncAll` on connect and `tab.stateChanged` for every plugin
 * whose tabs or readiness changed.
 */
import { READY_TIMEOUT_MS } from "../../../protocol/adapter.ts";
import type { SyncPlugin, TabStateChange } from "../../../protocol/events.ts";
import type { Injector } from "./injector.ts";
import type { MaybeMissing } from "./door_state.ts";
import { pluginEnabled, type PluginStore } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import { withTimeout } from "../../../protocol/with_timeout.ts";

export interface TabTracker {
  /** Probes every matching tab of every plugin again. */
  refreshAll(): Promise<void>;
  /**
   * Re-checks one tab (it loaded, navigated, was activated...). Tabs still loading are probed
   * only with `evenIfLoading` (their DOM is ready, some subresource is not).
   */
  refreshTab(tab: chrome.tabs.Tab, evenIfLoading?: boolean): Promise<void>;
  /** Probes one plugin in one tab again (the page asked). */
  reprobe(tabId: number, plugin: string): Promise<void>;
  /** The tab went away. */
  removed(tabId: number): void;
  /** The tab's document changed: nothing in it is ready until probed again. */
  navigated(tabId: number): void;
  isReady(tabId: number, plugin: string): boolean;
  /** The tab's URL as last seen (tab events keep it current); undefined for unknown tabs. */
  urlOf(tabId: number): string | undefined;
  /** Sends the full mapping (`tab.syncAll`); later changes go as `tab.stateChanged`. */
  syncAll(peer: RpcPeer): Promise<void>;
  /** Schedules a report of what changed. */
  report(): void;
  /** Grows with every change to tabs, windows or readiness: cached tab choices older are stale. */
  epoch(): number;
  /** Every plugin's tab state now (what the hub is told, and the side panel shows). */
  states(): Promise<TabStateChange[]>;
}

/** One plugin's state, from the open tabs and what the probes found. */
export function pluginTabState(
  plugin: SyncPlugin,
  tabs: chrome.tabs.Tab[],
  matches: (plugin: SyncPlugin, url?: string) => boolean,
  isReady: (tabId: number) => boolean,
): TabStateChange {
  const mine = tabs.filter((t) => t.id !== undefined && t.id >= 1 && matches(plugin, t.url))
    .map((t) => ({ tabId: t.id!, url: t.url ?? "", title: t.title ?? "", ready: isReady(t.id!) }));
  const state = mine.length === 0 ? "closed" : mine.some((t) => t.ready) ? "ready" : "unavailable";
  return { plugin: plugin.name, state, tabs: mine };
}

export function createTabTracker(
  store: PluginStore,
  injector: Injector,
  peer: () => RpcPeer | undefined,
  matches: (plugin: SyncPlugin, url?: string) => boolean,
  /** Called after every reported change (the side panel refreshes). */
  onChange: () => void = () => {},
): TabTracker {
  /** tabId → plugin → ready. */
  const ready = new Map<number, Map<string, boolean>>();
  /** Bumped when a tab's document changes, so a late probe of the old one is ignored. */
  const generation = new Map<number, number>();
  const sent = new Map<string, string>();
  const urls = new Map<number, string>();
  let reportTimer: ReturnType<typeof setTimeout> | undefined;
  let changes = 0;

  const gen = (tabId: number) => generation.get(tabId) ?? 0;

  function setReady(tabId: number, plugin: string, value: boolean) {
    let states = ready.get(tabId);
    if (!states) ready.set(tabId, states = new Map());
    states.set(plugin, value);
    report();
  }

  /** Probes running per `tabId:plugin`; a probe asked for meanwhile runs once more after. */
  const probing = new Map<string, { again: boolean; done: Promise<void> }>();

  /** One probe per tab and plugin at a time, so an older, slower answer never wins. */
  function probe(tabId: number, name: string): Promise<void> {
    const key = `${tabId}:${name}`;
    const running = probing.get(key);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          const plugin = store.get(name);
          // Never inject an `off` plugin (it may have been turned off since this was asked).
          if (pluginEnabled(plugin)) await probeOnce(tabId, plugin!);
          else if (ready.get(tabId)?.delete(name)) report();
        } while (state.again);
      } finally {
        probing.delete(key);
      }
    })();
    probing.set(key, state);
    return state.done;
  }

  /** Injects (if needed) and asks `isReady()`, all within the 5 s probe limit (plus slack). */
  async function probeOnce(tabId: number, plugin: SyncPlugin): Promise<void> {
    const started = gen(tabId);
    const work = async () => {
      await injector.ensure(tabId, plugin);
      return await injector.probe(tabId, plugin) as MaybeMissing;
    };
    let result: MaybeMissing | undefined;
    try {
      result = await withTimeout(work(), READY_TIMEOUT_MS + 1_000, undefined);
    } catch {
      result = undefined; // an error page, a tab that closed meanwhile...
    }
    if (gen(tabId) !== started) return;
    setReady(tabId, plugin.name, !!result && "ok" in result && result.ok && result.value === true);
  }

  async function refreshTab(tab: chrome.tabs.Tab, evenIfLoading = false): Promise<void> {
    if (tab.id === undefined) return;
    if (tab.url !== undefined) urls.set(tab.id, tab.url);
    const plugins = store.matching(tab.url);
    const states = ready.get(tab.id);
    for (const name of states?.keys() ?? []) {
      if (!plugins.some((p) => p.name === name)) states!.delete(name);
    }
    report();
    if (tab.status !== "complete" && !evenIfLoading) return; // probed when it has loaded
    await Promise.all(plugins.map((p) => probe(tab.id!, p.name)));
  }

  async function states(): Promise<TabStateChange[]> {
    const tabs = await chrome.tabs.query({});
    return store.all().map((p) => pluginTabState(p, tabs, matches, (id) => isReady(id, p.name)));
  }

  async function sendChanges() {
    const connected = peer();
    if (!connected) return;
    for (const change of await states()) {
      const text = JSON.stringify(change);
      if (sent.get(change.plugin) === text) continue;
      sent.set(change.plugin, text);
      connected.request("tab.stateChanged", change).catch((error) => {
        sent.delete(change.plugin); // resend with the next report
        console.warn(`hub: tab.stateChanged for ${change.plugin} failed`, error);
      });
    }
    for (const name of sent.keys()) if (!store.get(name)) sent.delete(name);
  }

  function isReady(tabId: number, plugin: string): boolean {
    return ready.get(tabId)?.get(plugin) === true;
  }

  function report() {
    changes++;
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => {
      onChange();
      void sendChanges().catch(console.warn);
    }, 0);
  }

  return {
    async refreshAll() {
      const tabs = await chrome.tabs.query({});
      await Promise.all(tabs.map((tab) => refreshTab(tab)));
    },
    refreshTab,
    reprobe: (tabId, name) => probe(tabId, name),
    removed(tabId) {
      ready.delete(tabId);
      urls.delete(tabId);
      generation.delete(tabId);
      injector.forget(tabId);
      report();
    },
    navigated(tabId) {
      generation.set(tabId, gen(tabId) + 1);
      ready.delete(tabId);
      report();
    },
    isReady,
    urlOf: (tabId) => urls.get(tabId),
    async syncAll(connected) {
      const plugins = await states();
      sent.clear();
      for (const change of plugins) sent.set(change.plugin, JSON.stringify(change));
      connected.notify("tab.syncAll", { plugins });
    },
    report,
    epoch: () => changes,
    states,
  };
}
