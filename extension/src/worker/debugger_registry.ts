/**
 * What the debugger sessions share (the Registry): the attached tabs, the attaches and detaches
 * under way, holds, hooks and listeners; and the steps every part uses on a tab: restart its idle
 * timer, forget it, detach it.
 */
import type { DebuggerMode } from "../../../protocol/debugger_mode.ts";
import { bounded, type CdpEvent } from "./debugger_cdp.ts";
import type { TabSession, TabState } from "./debugger_tab_state.ts";

/** Where the sessions log what the user may want to know (the extension's log). */
export interface SessionsLog {
  debug?(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
}

export type Hook = (session: TabSession, sessionId: string | undefined) => Promise<void>;

export interface Registry {
  readonly idleMs: number;
  readonly sendMs: number;
  readonly log: SessionsLog;
  mode: DebuggerMode;
  readonly tabs: Map<number, TabState>;
  readonly attaching: Map<number, Promise<TabState>>;
  readonly detaching: Map<number, Promise<void>>;
  readonly holds: Map<number, Set<object>>;
  readonly hooks: Hook[];
  readonly eventListeners: Set<(event: CdpEvent) => void>;
  readonly detachListeners: Set<(tabId: number, reason: string) => void>;
  readonly changeListeners: Set<() => void>;
  /** The chrome.debugger object the listeners are on (tests swap `chrome`). */
  listening?: unknown;
  /** Detaching what a restarted worker left attached (attaches wait for it). */
  leftOver: Promise<void>;
}

export function newRegistry(
  options: { idleMs: number; sendMs: number; log: SessionsLog },
): Registry {
  return {
    ...options,
    mode: "auto",
    tabs: new Map(),
    attaching: new Map(),
    detaching: new Map(),
    holds: new Map(),
    hooks: [],
    eventListeners: new Set(),
    detachListeners: new Set(),
    changeListeners: new Set(),
    leftOver: Promise.resolve(),
  };
}

/** Calls each listener with `args`; one that throws is logged, the others still run. */
export function tell<A extends unknown[]>(
  log: SessionsLog,
  listeners: Iterable<(...args: A) => void>,
  args: A,
  what: string,
) {
  for (const listener of [...listeners]) {
    try {
      listener(...args);
    } catch (error) {
      log.warn(`A debugger ${what} failed`, error);
    }
  }
}

/** attachedTabs() or mode() changed: the side panel redraws. */
export function changed(reg: Registry) {
  tell(reg.log, reg.changeListeners, [], "change listener");
}

/** Restarts the tab's idle timer: detach after idleMs without a command, unless held. */
export function touch(reg: Registry, state: TabState) {
  if (state.timer !== undefined) clearTimeout(state.timer);
  state.timer = undefined;
  if (!state.live) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    if (!state.live) return;
    if (state.inFlight > 0 || (reg.holds.get(state.tabId)?.size ?? 0) > 0) touch(reg, state);
    else void detach(reg, state.tabId, "idle");
  }, reg.idleMs);
}

/** Drops the tab's state (already detached, or about to be) and tells the listeners. */
export function forget(reg: Registry, state: TabState, reason: string) {
  if (reg.tabs.get(state.tabId) !== state) return;
  const wasAttached = state.attached;
  state.live = false;
  if (state.timer !== undefined) clearTimeout(state.timer);
  state.timer = undefined;
  reg.tabs.delete(state.tabId);
  reg.holds.delete(state.tabId);
  state.children.clear();
  if (!wasAttached) return;
  reg.log.info(`Detached the debugger from tab ${state.tabId} (${reason})`);
  tell(reg.log, reg.detachListeners, [state.tabId, reason], "detach listener");
  changed(reg);
}

/** Forgets the tab and detaches chrome.debugger from it (bounded; already gone is fine). */
export function detach(reg: Registry, tabId: number, reason: string): Promise<void> {
  const state = reg.tabs.get(tabId);
  if (!state) return reg.detaching.get(tabId) ?? Promise.resolve();
  forget(reg, state, reason);
  const done = bounded(
    Promise.resolve().then(() => chrome.debugger.detach({ tabId })),
    reg.sendMs,
    `detach from tab ${tabId}`,
  )
    .catch(() => {}) // already gone (tab closed, user cancelled)
    .finally(() => {
      if (reg.detaching.get(tabId) === done) reg.detaching.delete(tabId);
    });
  reg.detaching.set(tabId, done);
  return done;
}

export async function detachEvery(reg: Registry, reason: string) {
  await Promise.all([...reg.tabs.keys()].map((tabId) => detach(reg, tabId, reason)));
}
