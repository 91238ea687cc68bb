/**
 * The tabs' debugger sessions (`chrome.debugger`), shared by every method that needs the Chrome
 * DevTools Protocol: trusted input, dialogs, file choosers, response bodies, PDFs, element
 * screenshots and console reads.
 *
 * A tab is attached only when a call asks for its session, and detached after IDLE_MS without a
 * command (unless something holds it: an open dialog), when the tab closes, when the setting turns
 * the debugger off, and when the hub disconnects. Chromium shows its "started debugging this
 * browser" bar while any tab is attached. The parts: debugger_cdp.ts (bounded commands, errors),
 * debugger_tab_state.ts (one tab's session), debugger_registry.ts (what the parts share),
 * debugger_attach.ts (attaching a tab), debugger_children.ts (out-of-process frames),
 * debugger_settle.ts (the viewport after a new attach).
 */
import type { DebuggerMode } from "../../../protocol/debugger_mode.ts";
import { CdpError, type CdpEvent, type CdpParams } from "./debugger_cdp.ts";
import { attachTab, detachLeftOver, offError } from "./debugger_attach.ts";
import { onTargetEvent } from "./debugger_children.ts";
import {
  detach,
  detachEvery,
  forget,
  type Hook,
  newRegistry,
  type Registry,
  type SessionsLog,
  tell,
  touch,
} from "./debugger_registry.ts";
import type { TabSession, TabState } from "./debugger_tab_state.ts";

export type { DebuggerMode } from "../../../protocol/debugger_mode.ts";
export {
  bounded,
  CdpError,
  type CdpEvent,
  type CdpParams,
  isSendTimeout,
  neverAttachReason,
} from "./debugger_cdp.ts";
export type { SessionsLog } from "./debugger_registry.ts";
export { domainEnabled, type TabSession } from "./debugger_tab_state.ts";

export interface DebuggerSessions {
  mode(): DebuggerMode;
  /** From the hub's config (sync.full `debugger`) or the side panel; "off" detaches every tab. */
  setMode(mode: DebuggerMode): Promise<void>;
  /**
   * The tab's session, attaching when needed (protocol 1.3; Target.setAutoAttach {autoAttach,
   * flatten, waitForDebuggerOnStart: false}; then every onSession hook, for the page and each child
   * session of a web page's frame as it attaches). A new attach resolves once the page's viewport
   * holds still (Chromium's bar, debugger_settle.ts). Resets the tab's idle timer. Throws HubError
   * DEBUGGER_OFF (mode off), DEBUGGER_BUSY (another client holds the tab), NOT_A_WEB_PAGE (a page
   * hub never attaches to), TAB_NOT_FOUND. Concurrent calls for one tab share one attach.
   */
  session(tabId: number): Promise<TabSession>;
  /** The tab's session if attached now (no attach, no timer reset). */
  current(tabId: number): TabSession | undefined;
  /** Runs for every new session: sessionId undefined = the tab's page, else a child. Errors are logged, not thrown. */
  onSession(hook: (session: TabSession, sessionId: string | undefined) => Promise<void>): void;
  onEvent(listener: (event: CdpEvent) => void): () => void;
  onDetach(listener: (tabId: number, reason: string) => void): () => void;
  /** Keeps the tab attached past the idle time until the returned release is called (an open dialog). */
  hold(tabId: number): () => void;
  /** Tabs attached now, for the side panel. */
  attachedTabs(): number[];
  /** Fires when attachedTabs() or mode() changes (the side panel redraws). */
  onChange(listener: () => void): () => void;
  /** The hub disconnected: detach every tab. */
  detachAll(): Promise<void>;
}

/** Detach after this long without a command. */
export const IDLE_MS = 30_000;
/** The longest one command (and the attach, and the detach) may take by default. */
export const SEND_MS = 5_000;

export function createDebuggerSessions(
  options: { idleMs?: number; sendMs?: number; log?: SessionsLog } = {},
): DebuggerSessions {
  const reg = newRegistry({
    idleMs: options.idleMs ?? IDLE_MS,
    sendMs: options.sendMs ?? SEND_MS,
    log: options.log ?? { info: console.info, warn: console.warn },
  });
  ensureListeners(reg);
  reg.leftOver = detachLeftOver(reg).catch(() => {});
  const listen = <L>(set: Set<L>) => (listener: L) => {
    set.add(listener);
    return () => set.delete(listener);
  };
  return {
    mode: () => reg.mode,
    async setMode(next) {
      if (next === reg.mode) return;
      reg.mode = next;
      tell(reg.log, reg.changeListeners, [], "change listener");
      if (next === "off") await detachEvery(reg, "off");
    },
    session: (tabId) => sessionOf(reg, tabId),
    current(tabId) {
      const state = reg.tabs.get(tabId);
      return state?.ready && state.live ? state.session : undefined;
    },
    onSession: (hook: Hook) => void reg.hooks.push(hook),
    onEvent: listen(reg.eventListeners),
    onDetach: listen(reg.detachListeners),
    hold: (tabId) => hold(reg, tabId),
    attachedTabs: () =>
      [...reg.tabs.values()].filter((s) => s.attached && s.live).map((s) => s.tabId),
    onChange: listen(reg.changeListeners),
    detachAll: () => detachEvery(reg, "hub_disconnected"),
  };
}

/** The tab's ready session, or the one attach under way for it, or a new attach. */
async function sessionOf(reg: Registry, tabId: number): Promise<TabSession> {
  /** The mode now (a function: checks after an await read the current value). */
  const off = () => reg.mode === "off";
  if (off()) throw offError();
  const ready = reg.tabs.get(tabId);
  if (ready?.ready && ready.live) {
    touch(reg, ready);
    return ready.session;
  }
  let pending = reg.attaching.get(tabId);
  if (!pending) {
    ensureListeners(reg);
    pending = attachTab(reg, tabId).finally(() => reg.attaching.delete(tabId));
    reg.attaching.set(tabId, pending);
  }
  const state: TabState = await pending;
  if (!state.live) {
    if (off()) throw offError();
    throw new CdpError(`hub's debugger was detached from tab ${tabId} while attaching`);
  }
  touch(reg, state);
  return state.session;
}

function hold(reg: Registry, tabId: number): () => void {
  const token = {};
  if (!reg.holds.has(tabId)) reg.holds.set(tabId, new Set());
  const set = reg.holds.get(tabId)!;
  set.add(token);
  return () => {
    if (!set.delete(token)) return;
    if (set.size === 0 && reg.holds.get(tabId) === set) reg.holds.delete(tabId);
    const state = reg.tabs.get(tabId);
    if (state?.live) touch(reg, state);
  };
}

/** chrome.debugger's and chrome.tabs' listeners, once per `chrome` (tests swap it). */
function ensureListeners(reg: Registry) {
  const api = globalThis.chrome?.debugger;
  if (!api || reg.listening === api) return;
  reg.listening = api;
  api.onEvent.addListener((source, method, params) => onChromeEvent(reg, source, method, params));
  api.onDetach.addListener((source, reason) => onChromeDetach(reg, source, reason));
  globalThis.chrome.tabs?.onRemoved?.addListener((tabId) => {
    if (reg.tabs.has(tabId)) void detach(reg, tabId, "tab_closed");
  });
  // A prerendered page swapped in: the old tab id is gone.
  globalThis.chrome.tabs?.onReplaced?.addListener((_added, removed) => {
    if (reg.tabs.has(removed)) void detach(reg, removed, "tab_closed");
  });
}

function onChromeEvent(
  reg: Registry,
  source: chrome.debugger.DebuggerSession,
  method: string,
  params?: CdpParams,
) {
  const tabId = source.tabId;
  if (tabId === undefined) return;
  const state = reg.tabs.get(tabId);
  if (!state?.live) return;
  const p = params ?? {};
  if (method.startsWith("Target.")) onTargetEvent(reg, state, method, p, source.sessionId);
  if (source.sessionId && state.refused.has(source.sessionId)) return;
  const event: CdpEvent = { tabId, sessionId: source.sessionId, method, params: p };
  tell(reg.log, reg.eventListeners, [event], `event listener on ${method}`);
}

function onChromeDetach(reg: Registry, source: chrome.debugger.Debuggee, reason: string) {
  const tabId = source.tabId;
  if (tabId === undefined || !reg.tabs.has(tabId)) return;
  if (reason === "canceled_by_user") {
    reg.log.info(
      `The debugger was detached from tab ${tabId}: someone pressed Cancel on Chromium's ` +
        `"started debugging this browser" bar. hub attaches again when a call needs it.`,
    );
  }
  forget(reg, reg.tabs.get(tabId)!, reason);
}
