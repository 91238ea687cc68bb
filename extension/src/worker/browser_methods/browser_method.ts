/**
 * The extension side of the built-in `browser_*` / `extension_*` tools: each tool names a method
 * of the table in protocol/browser_methods/, and each method is one file here that takes the
 * parsed input (defaults applied, limits checked) and returns the tool's value, or throws a
 * HubError.
 */
import type {
  BrowserInput,
  BrowserMethodName,
  BrowserResult,
} from "../../../../protocol/browser_methods/mod.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { DOM_KIT_FILE, type KitOutcome } from "../../page/dom_kit_types.ts";
import type { TabCalls } from "../tab_calls.ts";
import type { ExtensionLog } from "../extension_log.ts";
import type { DebuggerSessions } from "../debugger_sessions.ts";
import type { DialogWatch } from "../dialogs.ts";
import type { RefFrames } from "./ref_frames.ts";
import type { SnapshotStore } from "./snapshot_store.ts";
import type { NetworkLog } from "../network_log.ts";
import type { PanelState } from "../../shared/panel_messages.ts";
import type { Downloads } from "../downloads.ts";
import type { SiteAccess } from "../site_access.ts";
import type { SiteUses } from "../site_uses.ts";
import type { AgentGroup } from "../agent_group.ts";

export interface MethodContext {
  /** The worker's tab calls, bound to this call: they stop when the hub ends it. */
  calls: TabCalls;
  /**
   * The tabs' shared debugger sessions (debugger_sessions.ts): attached when a call needs CDP,
   * detached when idle. Trusted input, dialogs, console reads, bodies, PDFs use them.
   */
  sessions: DebuggerSessions;
  /** The tabs' frame tables: which document each ref names (ref_frames.ts). */
  refFrames: RefFrames;
  /** The snapshots kept for browser_snapshot's `since` and `offset` (snapshot_store.ts). */
  snapshots: SnapshotStore;
  /** Every tab's network requests, from chrome.webRequest (browser_network_requests). */
  network: NetworkLog;
  /** The tabs' open JavaScript dialogs (dialogs.ts): the gate, actions' `dialog`, handle_dialog. */
  dialogs: DialogWatch;
  /** The browser's downloads (browser_list_downloads, the `download` of acting tools). */
  downloads: Downloads;
  /** The extension's own log (extension_get_logs). */
  log: ExtensionLog;
  /** The site rules from the hub (site_access.ts), enforced by the site gate (site_gate.ts). */
  sites: SiteAccess;
  /** Sites (`Site.key`) the person allowed once for this call: the dispatch's `siteGrants`. */
  siteGrants: readonly string[];
  /** The agent's tab group (agent_group.ts): tabs the agent read or acted on, agentTabsOnly. */
  agentGroup: AgentGroup;
  /** When each site rule last let a call through (site_uses.ts), for the side panel. */
  siteUses: SiteUses;
  /**
   * Per call (mod.ts): where a call placed in a child frame noted that frame's origin
   * (call_place.ts), which the call answers instead of the top page's.
   */
  frameSite?: { origin?: string };
  /** Everything the side panel shows: link, hub sync, tab states, activity, confirmations. */
  state(): Promise<PanelState>;
  /** Reloads the extension (after the current answer has gone out). */
  reload(): void;
}

/** The handler of method `M`. */
export type BrowserMethod<M extends BrowserMethodName> = (
  input: BrowserInput<M>,
  context: MethodContext,
) => Promise<BrowserResult<M>>;

/** One handler per method of the table: a missing, extra or misspelled name fails the check. */
export type BrowserHandlers = { [M in BrowserMethodName]: BrowserMethod<M> };

/** The part of an input that picks the tab. */
export interface TabTarget {
  tabId?: number;
}

/** The tab a browser tool works on: `tabId` when given, else the focused window's active tab. */
export async function targetTab(input: TabTarget): Promise<chrome.tabs.Tab> {
  if (input.tabId !== undefined) {
    const tab = await chrome.tabs.get(input.tabId).catch(() => undefined);
    if (tab) return tab;
    throw hubError(
      "TAB_NOT_FOUND",
      `No tab ${input.tabId} is open. Call browser_list_tabs for ids.`,
    );
  }
  const [focused] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  const tab = focused ?? (await chrome.tabs.query({ active: true }))[0];
  if (tab?.id !== undefined) return tab;
  throw hubError("TAB_NOT_FOUND", "No browser tab is open. Open one, or pass a tabId.");
}

/**
 * The target tab (see `targetTab`), which must show an http(s) page; otherwise NOT_A_WEB_PAGE,
 * whose message goes on with `why` (", so it has no cookies. …").
 */
export async function webPageTab(
  input: TabTarget,
  why: string,
): Promise<{ tab: chrome.tabs.Tab; tabId: number; url: string }> {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const url = tab.url ?? "";
  if (!/^https?:/i.test(url)) {
    throw hubError(
      "NOT_A_WEB_PAGE",
      `Tab ${tabId} shows ${url || "no page"}, not a web page${why}`,
    );
  }
  return { tab, tabId, url };
}

/** The first frame's result of `chrome.scripting.executeScript`. */
export function firstResult<T>(frames: chrome.scripting.InjectionResult<unknown>[]): T {
  if (!frames[0]) throw new Error("the page returned no result");
  return frames[0].result as T;
}

/**
 * `call()`'s outcome in `target`; when it is KIT_MISSING (the DOM kit is not there yet, or is an
 * older version), the kit is installed in `target` and `call()` runs once more.
 */
export async function callWithKit<T extends KitOutcome>(
  target: chrome.scripting.InjectionTarget,
  call: () => Promise<T>,
): Promise<T> {
  const outcome: KitOutcome = await call();
  if (outcome.ok || outcome.error.code !== "KIT_MISSING") return outcome as T;
  await chrome.scripting.executeScript({ target, files: [DOM_KIT_FILE] });
  return await call();
}
