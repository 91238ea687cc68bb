/**
 * The service worker: connects to the hub, keeps plugin adapters in matching tabs, reports tab
 * states, and runs tool calls. Every Chromium event listener is registered synchronously here,
 * at the top level, so events can wake a stopped worker.
 */
import { z } from "zod";
import type { DispatchParams, DispatchResult, SyncPlugin } from "../../protocol/events.ts";
import { dispatchBrowserTool } from "./browser_methods/mod.ts";
import { createConnection } from "./connection.ts";
import { createInjector } from "./injector.ts";
import { handlePageEvent } from "./page_events.ts";
import { createPluginDispatcher } from "./plugin_dispatch.ts";
import { createPluginStore, pluginMatches } from "./plugin_store.ts";
import type { ServerHandlers } from "./rpc_peer.ts";
import { showStatus } from "./status_badge.ts";
import { CallFailure, createTabCalls } from "./tab_calls.ts";
import { createTabTracker } from "./tab_tracker.ts";

// Extension pages forbid eval; zod must not try to compile validators.
z.config({ jitless: true });

export const KEEPALIVE_ALARM = "hub-keepalive";

const store = createPluginStore();
const injector = createInjector();
const calls = createTabCalls();
const peer = () => connection.peer();
const tracker = createTabTracker(store, injector, peer, pluginMatches);
const dispatchPluginTool = createPluginDispatcher({ store, injector, tracker, calls });

async function dispatch(params: DispatchParams): Promise<DispatchResult> {
  try {
    return params.kind === "plugin"
      ? await dispatchPluginTool(params)
      : await dispatchBrowserTool(params, { calls });
  } catch (error) {
    if (error instanceof CallFailure) return { ok: false, error: error.payload };
    const message = (error as Error)?.message ?? String(error);
    return {
      ok: false,
      error: { code: "EXTENSION_ERROR", message, category: "internal", retryable: false },
    };
  }
}

async function dropPlugins(names: string[]) {
  if (names.length === 0) return;
  const tabs = await chrome.tabs.query({});
  await Promise.all(
    tabs.flatMap((t) =>
      t.id === undefined ? [] : names.map((name) => injector.remove(t.id!, name).catch(() => {}))
    ),
  );
}

function applyPlugins(removed: string[]) {
  void dropPlugins(removed).then(() => tracker.refreshAll()).catch(console.warn);
}

const handlers: ServerHandlers = {
  "sync.full": ({ plugins }) => applyPlugins(store.replace(plugins as SyncPlugin[])),
  "plugin.update": ({ plugin }) => {
    store.set(plugin);
    applyPlugins([]);
  },
  "plugin.uninstall": async ({ plugin }) => {
    const known = store.remove(plugin);
    await dropPlugins([plugin]);
    tracker.report();
    return { ok: known };
  },
  "plugins.changed": () => {},
  "tool.dispatch": (params) => dispatch(params),
  "tool.invocationStart": () => {},
  "tool.invocationEnd": () => {},
  "extension.reload": () => chrome.runtime.reload(),
  pong: () => {},
};

const connection = createConnection(handlers, {
  onConnected: (linked) => void tracker.syncAll(linked).catch(console.warn),
  onStatus: showStatus,
});

// A new document in a tab (not a same-document change like history.pushState): calls running
// in the old one lost their answer, and nothing in the new one is probed yet.
chrome.webNavigation.onCommitted.addListener(({ tabId, frameId, url }) => {
  if (frameId !== 0 || tabId < 1) return;
  calls.navigated(tabId, url);
  tracker.navigated(tabId);
});
chrome.tabs.onUpdated.addListener((_tabId, info, tab) => {
  if (info.status !== undefined || info.url !== undefined) void tracker.refreshTab(tab);
  else if (info.title !== undefined) tracker.report();
});
chrome.tabs.onCreated.addListener((tab) => void tracker.refreshTab(tab));
chrome.tabs.onRemoved.addListener((tabId) => {
  calls.closed(tabId);
  tracker.removed(tabId);
});
chrome.tabs.onReplaced.addListener((added, removedId) => {
  calls.closed(removedId);
  tracker.removed(removedId);
  void chrome.tabs.get(added).then((tab) => tracker.refreshTab(tab)).catch(() => {});
});
chrome.tabs.onActivated.addListener(({ tabId }) => {
  void chrome.tabs.get(tabId).then((tab) => tracker.refreshTab(tab)).catch(() => {});
});
chrome.windows.onFocusChanged.addListener(() => tracker.report());
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  handlePageEvent(message, sender, { store, tracker, peer });
  sendResponse({ ok: true });
});
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name !== KEEPALIVE_ALARM) return;
  connection.ensure();
  void tracker.refreshAll().catch(console.warn);
});

void chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
connection.ensure();
