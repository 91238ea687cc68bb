/**
 * The service worker: connects to the hub, keeps plugin adapters in matching tabs, reports tab
 * states, and runs tool calls. Every Chromium event listener is registered synchronously here,
 * at the top level, so events can wake a stopped worker.
 */
import * as z from "zod";
import type { DispatchParams, DispatchResult, SyncPlugin } from "../../../protocol/events.ts";
import { errorPayload, HubError } from "../../../protocol/errors.ts";
import { dispatchBrowserTool } from "./browser_methods/mod.ts";
import { createDebuggerSessions } from "./debugger_sessions.ts";
import { createRefFrames } from "./browser_methods/ref_frames.ts";
import { createSnapshotStore } from "./browser_methods/snapshot_store.ts";
import { createConnection } from "./connection.ts";
import { createAdapterDoors } from "./adapter_doors.ts";
import { createInjector } from "./injector.ts";
import { handlePageEvent } from "./page_events.ts";
import { createDoorExchanges } from "./door_exchanges.ts";
import { createPluginDispatch } from "./plugin_dispatch.ts";
import { createPluginStore, pluginMatches } from "./plugin_store.ts";
import type { ServerHandlers } from "./rpc_peer.ts";
import {
  MAX_RESULT_BYTES,
  replyTooLargeWords,
  resultSizeError,
} from "../../../protocol/call_contract.ts";
import { callScoped, createTabCalls } from "./tab_calls.ts";
import { createCallEnds } from "./call_ends.ts";
import { createTabTracker } from "./tab_tracker.ts";
import { createExtensionLog } from "./extension_log.ts";
import { createSidePanel } from "./side_panel.ts";
import { createNetworkLog } from "./network_log.ts";
import { createDialogs } from "./dialogs.ts";
import { createDownloads } from "./downloads.ts";
import { MAX_URL_CHARS } from "../../../protocol/browser_methods/network.ts";
import { createSiteAccess } from "./site_access.ts";
import { createSiteUses } from "./site_uses.ts";
import { createAgentGroup } from "./agent_group.ts";

// Extension pages forbid eval; zod must not try to compile validators.
z.config({ jitless: true });

export const KEEPALIVE_ALARM = "hub-keepalive";

const log = createExtensionLog();
const store = createPluginStore();
const doors = createAdapterDoors();
const injector = createInjector(
  doors,
  (tabId, plugin, door) => exchanges.watch(tabId, plugin, door),
  (name) => store.get(name),
);
const calls = createTabCalls();
const ends = createCallEnds();
const network = createNetworkLog();
network.listen();
/** The tabs' debugger sessions; its chrome.debugger and tab-close listeners register here. */
const sessions = createDebuggerSessions({ log });
network.watch(sessions);
const dialogs = createDialogs(sessions);
const refFrames = createRefFrames();
/** The hub's site rules (from sync.full), the gate every browser method passes (site_gate.ts). */
const sites = createSiteAccess();
const siteUses = createSiteUses();
/** The agent's "hub" tab groups; its tab and tab group listeners register here. */
const agentGroup = createAgentGroup();
const downloads = createDownloads({
  // The tab asked for the download's URL (a link or a navigation that turned into a download).
  requested: (tabId, url) =>
    network.list(tabId, { urlIncludes: url.slice(0, MAX_URL_CHARS), limit: 1 }).total > 0,
});
downloads.listen();
/**
 * Numbered from a clock-derived start, so a snapshot id from before a worker restart is unlikely
 * to name a new snapshot (it answers REF_STALE instead).
 */
const snapshots = createSnapshotStore(1 + (Date.now() % 900_000));
const peer = () => connection.peer();
const tracker = createTabTracker(store, injector, peer, pluginMatches, () => panel.tabsChanged());
const panel = createSidePanel({
  connection: () => connection,
  store,
  tracker,
  log,
  debugger: sessions,
  siteUses,
});
const exchanges = createDoorExchanges(
  doors,
  (tabId, plugin, event) => handlePageEvent(tabId, plugin, event, { store, tracker, peer }),
);
const dispatchPluginTool = createPluginDispatch({
  store,
  injector,
  tracker,
  calls,
  exchanges,
  dialogs,
});

/** A tool result too big for one frame to the hub fails the call instead of timing out. */
function tooLarge(method: string, bytes: number, params: unknown): unknown {
  if (method !== "tool.dispatch") return undefined;
  const error = resultSizeError(bytes, MAX_RESULT_BYTES, replyTooLargeWords);
  if (!error) return undefined;
  const answer: DispatchResult = { ok: false, error };
  // The activity list saw the reply before it was measured: it shows this answer instead.
  const dispatchId = (params as Partial<DispatchParams> | undefined)?.dispatchId;
  if (typeof dispatchId === "string") panel.callReplied(dispatchId, answer, true);
  return answer;
}

/** Reloads the extension once the current answer has had time to go out. */
function reloadSoon() {
  setTimeout(() => chrome.runtime.reload(), 200);
}

/**
 * Runs one `tool.dispatch`. The call shows in the activity list from here to its reply: the hub
 * sends no notifications for a call the extension answers itself.
 */
async function dispatch(params: DispatchParams): Promise<DispatchResult> {
  panel.callStarted(params);
  const ended = ends.start(params.dispatchId);
  const result = await run(params, ended).finally(() => ends.done(params.dispatchId));
  panel.callReplied(params.dispatchId, result);
  return result;
}

/** Runs the dispatch until it answers, or until `ended` aborts: the hub ended the call. */
async function run(params: DispatchParams, ended: AbortSignal): Promise<DispatchResult> {
  try {
    return params.kind === "plugin"
      ? await dispatchPluginTool(params, ended)
      : await dispatchBrowserTool(params, {
        calls: callScoped(calls, ended),
        sessions,
        refFrames,
        snapshots,
        network,
        dialogs,
        downloads,
        log,
        sites,
        siteGrants: params.siteGrants ?? [],
        agentGroup,
        siteUses,
        state: panel.state,
        reload: reloadSoon,
      });
  } catch (error) {
    return dispatchFailure(error);
  }
}

/**
 * The extension's one error mapper for the hub: what a dispatch threw, as the failed result it
 * answers `tool.dispatch` with. A HubError keeps its payload; anything else is EXTENSION_ERROR.
 */
function dispatchFailure(error: unknown): DispatchResult {
  if (error instanceof HubError) return { ok: false, error: error.payload };
  const message = (error as Error)?.message ?? String(error);
  return { ok: false, error: errorPayload("EXTENSION_ERROR", message) };
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

/** Takes `removed` (gone or turned off) out of open tabs, then injects what is enabled. */
function applyPlugins(removed: string[]) {
  void dropPlugins(removed).then(() => tracker.refreshAll()).catch(console.warn);
}

/**
 * `hub start` updated the files on disk, but this worker still runs the old code: reload once
 * the files on disk are the hub's version (then the versions match and this does nothing).
 */
async function reloadIfUpdated(hubVersion: string) {
  const manifest = chrome.runtime.getManifest();
  const running = manifest.version_name ?? manifest.version;
  if (running === hubVersion) return;
  const onDisk = await fetch(chrome.runtime.getURL("manifest.json"), { cache: "no-store" })
    .then((r) => r.json()).catch(() => undefined);
  if (onDisk?.version_name === hubVersion) {
    console.info(`hub: updating the extension from ${running} to ${hubVersion}`);
    chrome.runtime.reload();
  }
}

const handlers: ServerHandlers = {
  "sync.full": (params) => {
    applyPlugins(store.replace(params.plugins as SyncPlugin[]));
    sites.update(params);
    panel.synced(params);
    // The hub's `debugger` setting (absent from an older hub: auto); off detaches every tab.
    void sessions.setMode(params.debugger ?? "auto").catch((error) =>
      log.warn("Could not apply the debugger setting", error)
    );
    void reloadIfUpdated(params.hubVersion);
  },
  "plugin.update": ({ plugin }) => {
    // Dev mode follows the same rule: an `off` plugin's rebuilt adapter is not injected.
    applyPlugins(store.set(plugin) ? [plugin.name] : []);
  },
  "plugin.uninstall": async ({ plugin }) => {
    const known = store.remove(plugin);
    await dropPlugins([plugin]);
    tracker.report();
    return { ok: known };
  },
  "plugins.changed": () => panel.tabsChanged(),
  "plugin.progress": (params) => panel.progress(params),
  "tool.dispatch": (params) => dispatch(params),
  "tool.invocationStart": (params) => panel.callStarted(params),
  "tool.invocationEnd": (params) => {
    ends.ended(params.invocationId, params.error);
    panel.invocationEnd(params);
  },
  "confirmation.request": (params) => panel.confirmationRequest(params),
  "extension.reload": () => chrome.runtime.reload(),
  pong: () => {},
};

const connection = createConnection(handlers, {
  onConnected: (linked) => void tracker.syncAll(linked).catch(console.warn),
  onStatus: (status) => {
    if (status.state === "disconnected") {
      ends.linkClosed();
      // Without the hub no call needs the debugger: Chromium's bar goes away.
      void sessions.detachAll();
    }
    panel.linkChanged(status);
  },
  oversize: tooLarge,
});

// A new document in a tab (not a same-document change like history.pushState): calls running
// in the old one lost their answer, nothing in the new one is probed yet, and the doors of the
// old one are forgotten (no call may go to a door the new page could imitate).
chrome.webNavigation.onCommitted.addListener(({ tabId, frameId, url, documentId }) => {
  if (frameId !== 0 || tabId < 1) return;
  doors.forgetTab(tabId, documentId);
  calls.navigated(tabId, url);
  tracker.navigated(tabId);
});
// The DOM is ready: probe now rather than wait for "complete", which a page with a hanging
// request never reaches.
chrome.webNavigation.onDOMContentLoaded.addListener(({ tabId, frameId }) => {
  if (frameId !== 0 || tabId < 1) return;
  void chrome.tabs.get(tabId).then((tab) => tracker.refreshTab(tab, true)).catch(() => {});
});
chrome.tabs.onUpdated.addListener((_tabId, info, tab) => {
  if (info.status !== undefined || info.url !== undefined) void tracker.refreshTab(tab);
  else if (info.title !== undefined) tracker.report();
});
chrome.tabs.onCreated.addListener((tab) => void tracker.refreshTab(tab));
chrome.tabs.onRemoved.addListener((tabId) => {
  calls.closed(tabId);
  tracker.removed(tabId);
  void refFrames.forgetTab(tabId);
  snapshots.forgetTab(tabId);
});
chrome.tabs.onReplaced.addListener((added, removedId) => {
  calls.closed(removedId);
  tracker.removed(removedId);
  void refFrames.forgetTab(removedId);
  snapshots.forgetTab(removedId);
  void chrome.tabs.get(added).then((tab) => tracker.refreshTab(tab)).catch(() => {});
});
chrome.tabs.onActivated.addListener(({ tabId }) => {
  void chrome.tabs.get(tabId).then((tab) => tracker.refreshTab(tab)).catch(() => {});
});
chrome.windows.onFocusChanged.addListener(() => tracker.report());
chrome.runtime.onConnect.addListener((port) => panel.accept(port));
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === KEEPALIVE_ALARM) connection.ensure();
});
chrome.notifications.onButtonClicked.addListener((id, index) =>
  panel.notifications.buttonClicked(id, index)
);
chrome.notifications.onClicked.addListener((id) => panel.notifications.clicked(id));
panel.notifications.clearStale();
// The toolbar icon opens the side panel (its "Connect" button takes the link back from another
// browser profile).
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((error) =>
  log.warn("Cannot make the toolbar icon open the side panel", error)
);

void chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
connection.ensure();
