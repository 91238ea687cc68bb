/**
 * `tool.dispatch` for plugin tools: picks the tab (exactly the requested `tabId`, checked against
 * the plugin's patterns and instance, or the best ready tab). Tab targeting is owned here; the
 * hub's own check before dispatching is a fast-fail with the same codes and messages
 * (protocol/tab_readiness.ts). Then it runs the handler through the
 * adapter in the page's MAIN world, and returns its `{ ok, value | error }` envelope with the tab
 * it ran in. Calls go to the adapter's private door (door_exchanges.ts); a page that lost the adapter
 * (it navigated) gets it injected again first, and only if the plugin is still on and still the
 * same build. A call that may have run is never run again.
 *
 * Once the tab is chosen, the call passes that tab's dialog gate (dialog_gate.ts): a tab with an
 * alert, confirm, prompt or beforeunload open answers DIALOG_OPEN at once instead of hanging on the
 * frozen page, and so does a call during which one opens.
 *
 * Site rules do not apply (a plugin is limited by its own URL patterns and permission), but the
 * answer carries the origin of the page the plugin ran in, for the audit entry and the page-content
 * marker (docs/decisions/072-site-permissions.md).
 */
import type { AdapterCall, AdapterResult } from "../../../protocol/adapter.ts";
import { splitToolName } from "../../../protocol/call_contract.ts";
import type { DispatchParams, DispatchResult, SyncPlugin } from "../../../protocol/events.ts";
import { hubError } from "../../../protocol/errors.ts";
import { instanceOfUrl } from "../../../protocol/plugin_settings.ts";
import { siteOf } from "../../../protocol/site_permissions.ts";
import {
  type OpenTab,
  requestedTabRefusal,
  type TabTarget,
} from "../../../protocol/tab_readiness.ts";
import type { Injector } from "./injector.ts";
import type { DoorExchanges } from "./door_exchanges.ts";
import type { DialogWatch } from "./dialogs.ts";
import { withTabDialogGate } from "./browser_methods/dialog_gate.ts";
import { pluginEnabled, pluginMatches, type PluginStore } from "./plugin_store.ts";
import { chooseTab } from "./tab_ranking.ts";
import type { TabCalls } from "./tab_calls.ts";
import { pluginTabState, type TabTracker } from "./tab_tracker.ts";

export interface PluginDispatchDeps {
  store: PluginStore;
  injector: Injector;
  tracker: TabTracker;
  calls: TabCalls;
  exchanges: DoorExchanges;
  /** The tabs' open dialogs (the gate); without it, calls are not gated. */
  dialogs?: DialogWatch;
}

function belongs(plugin: SyncPlugin, tab: chrome.tabs.Tab, instance?: { name: string }) {
  if (!pluginMatches(plugin, tab.url)) return false;
  return !instance || instanceOfUrl(plugin.instances, tab.url ?? "") === instance.name;
}

function targetOf(plugin: SyncPlugin, params: DispatchParams): TabTarget {
  return {
    displayName: plugin.displayName,
    urlPatterns: plugin.urlPatterns,
    instance: params.instance,
  };
}

/**
 * The tab the caller named, refused as the hub refuses it (`requestedTabRefusal`). The named tab
 * alone is enough to accept it; the plugin's other open tabs are only looked up to list them in a
 * refusal.
 */
async function requestedTab(plugin: SyncPlugin, params: DispatchParams): Promise<chrome.tabs.Tab> {
  const tabId = params.tabId!;
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  const mine = tab && pluginMatches(plugin, tab.url);
  const open = mine ? [{ tabId, url: tab.url ?? "" }] : await otherPluginTabs(plugin, tabId);
  const refusal = requestedTabRefusal(targetOf(plugin, params), plugin.instances, tabId, open);
  if (refusal) throw hubError(refusal.code, refusal.message);
  return tab!;
}

/** The plugin's open tabs but `tabId`, as the hub is told them (`pluginTabState`). */
async function otherPluginTabs(plugin: SyncPlugin, tabId: number): Promise<OpenTab[]> {
  const tabs = await chrome.tabs.query({}).catch(() => []);
  return pluginTabState(plugin, tabs, pluginMatches, () => false).tabs
    .filter((t) => t.tabId !== tabId);
}

async function bestTab(
  plugin: SyncPlugin,
  params: DispatchParams,
  tracker: TabTracker,
): Promise<chrome.tabs.Tab> {
  const [tabs, focused] = await Promise.all([
    chrome.tabs.query({}),
    chrome.windows.getLastFocused().catch(() => undefined),
  ]);
  const mine = tabs.filter((t) => t.id !== undefined && belongs(plugin, t, params.instance));
  const isReady = (t: chrome.tabs.Tab) => tracker.isReady(t.id!, plugin.name);
  const chosen = chooseTab(targetOf(plugin, params), mine, isReady, focused?.id);
  if ("refusal" in chosen) throw hubError(chosen.refusal.code, chosen.refusal.message);
  return chosen.tab;
}

/** Runs one dispatch; `ended` aborts when the call ended elsewhere (call_ends.ts). */
export type PluginDispatch = (
  params: DispatchParams,
  ended?: AbortSignal,
) => Promise<DispatchResult>;

/**
 * It remembers the best tab per plugin and instance until anything about tabs,
 * windows or readiness changes (the tracker's epoch), so a stream of calls costs one
 * `executeScript` each and no tab queries.
 */
export function createPluginDispatch(deps: PluginDispatchDeps): PluginDispatch {
  const chosen = new Map<string, { epoch: number; tabId: number }>();

  async function pickTab(plugin: SyncPlugin, params: DispatchParams): Promise<number> {
    if (params.tabId !== undefined) return (await requestedTab(plugin, params)).id!;
    const key = `${plugin.name}\n${params.instance?.name ?? ""}`;
    const epoch = deps.tracker.epoch();
    const cached = chosen.get(key);
    if (cached?.epoch === epoch) return cached.tabId;
    const tabId = (await bestTab(plugin, params, deps.tracker)).id!;
    chosen.set(key, { epoch, tabId });
    return tabId;
  }

  return (params, ended) => dispatchPluginTool(params, deps, pickTab, ended);
}

async function dispatchPluginTool(
  params: DispatchParams,
  deps: PluginDispatchDeps,
  pickTab: (plugin: SyncPlugin, params: DispatchParams) => Promise<number>,
  ended?: AbortSignal,
): Promise<DispatchResult> {
  const plugin = deps.store.get(params.plugin);
  if (!plugin) {
    throw hubError("TOOL_NOT_FOUND", `The extension does not know plugin "${params.plugin}" yet.`);
  }
  if (!pluginEnabled(plugin)) {
    // The hub refuses calls to `off` tools; this covers a call that crossed turning it off.
    throw hubError(
      "PERMISSION_OFF",
      `Plugin "${plugin.name}" is off, so its adapter is not in any tab. Allow it in the side ` +
        "panel first.",
    );
  }
  const tabId = await pickTab(plugin, params);
  // The page the call runs in, read as it starts: its origin goes with the answer.
  const origin = chrome.tabs.get(tabId).then((tab) => siteOf(tab.url)?.origin, () => undefined);
  // A call the gate failed lets go of the page (its adapter call) as an ended call does.
  const gave = new AbortController();
  const signal = ended ? AbortSignal.any([ended, gave.signal]) : gave.signal;
  try {
    const result = await withTabDialogGate(
      deps.dialogs,
      tabId,
      () => runInTab(deps, plugin, params, tabId, signal),
    );
    return withOrigin(result, await origin);
  } finally {
    gave.abort();
  }
}

/** A successful answer with the origin of the page the plugin ran in (the audit, the marker). */
function withOrigin(result: DispatchResult, origin: string | undefined): DispatchResult {
  return result.ok && origin !== undefined ? { ...result, origin } : result;
}

/** Runs the call in `tabId` through the plugin's adapter (injected again if the page lost it). */
async function runInTab(
  deps: PluginDispatchDeps,
  plugin: SyncPlugin,
  params: DispatchParams,
  tabId: number,
  ended: AbortSignal,
): Promise<DispatchResult> {
  const request: AdapterCall = {
    tool: params.baseTool ?? splitToolName(params.tool)?.tool ?? params.tool,
    input: params.input,
    dispatchId: params.dispatchId,
    settings: params.settings ?? plugin.settings,
    ...(params.instance ? { instance: params.instance } : {}),
  };
  const what = params.tool;
  const run = (signal: AbortSignal) =>
    deps.exchanges.call(tabId, plugin.name, plugin.adapterHash, request, signal);
  let result = await deps.calls.run(tabId, what, run, ended);
  if ("missing" in result) {
    // The page lost the adapter (it reloaded), or the call came before the first injection:
    // nothing ran. The plugin may have been turned off or rebuilt meanwhile.
    stillCurrent(deps, plugin);
    await deps.calls.run(tabId, what, () => deps.injector.ensure(tabId, plugin), ended);
    result = await deps.calls.run(tabId, what, run, ended);
  }
  if ("missing" in result) {
    throw hubError(
      "EXTENSION_ERROR",
      `The ${plugin.displayName} adapter did not load in tab ${tabId}.`,
    );
  }
  return envelope(result, tabId);
}

/** Throws unless the store still has `plugin` enabled, as the same build. */
function stillCurrent(deps: PluginDispatchDeps, plugin: SyncPlugin) {
  const now = deps.store.get(plugin.name);
  if (!pluginEnabled(now)) {
    throw hubError(
      "PERMISSION_OFF",
      `Plugin "${plugin.name}" was turned off or removed before the call reached its adapter; ` +
        "it did not run. Allow it in the side panel first.",
    );
  }
  if (now!.adapterHash !== plugin.adapterHash) {
    throw hubError(
      "TAB_UNAVAILABLE",
      `Plugin "${plugin.name}" got a new build before the call reached its adapter; it did not ` +
        "run. Call again to run it with the new build.",
    );
  }
}

function envelope(result: AdapterResult, tabId: number): DispatchResult {
  if (result.ok) return { ok: true, value: result.value, tabId };
  return { ok: false, error: result.error };
}
