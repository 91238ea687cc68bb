/**
 * One attached tab as the sessions keep it (TabState), and the session handed to methods
 * (TabSession): its `send` is bounded, keeps the tab from idling while a command runs, and
 * remembers which domains are enabled in each session.
 */
import { CdpError, type CdpParams, sendBounded } from "./debugger_cdp.ts";

export interface TabSession {
  readonly tabId: number;
  /** One CDP command, bounded (default 5 s; options.timeoutMs), to the tab's page or to a child session. */
  send<T = CdpParams>(
    method: string,
    params?: CdpParams,
    options?: { sessionId?: string; timeoutMs?: number },
  ): Promise<T>;
  /** The out-of-process frames' sessions attached now (Target.setAutoAttach flatten). */
  children(): ReadonlyArray<{ sessionId: string; targetId: string; url: string }>;
}

export interface Child {
  sessionId: string;
  targetId: string;
  url: string;
}

/** One tab's attachment, from the attach call until it is detached. */
export interface TabState {
  tabId: number;
  session: TabSession;
  /** True once chrome.debugger attached: attachedTabs() lists it, detaching tells listeners. */
  attached: boolean;
  /** True once the page's hooks ran and its frames were reached: session() hands it out. */
  ready: boolean;
  /** False once detached: its session's commands fail. */
  live: boolean;
  children: Map<string, Child>;
  /** Child sessions hub detached from (not a web page): their events are not passed on. */
  refused: Set<string>;
  /** Hooks of child sessions still running (the first attach waits for them, bounded). */
  childHooks: Set<Promise<void>>;
  /** `<sessionId or "">` → domains enabled through `send` (X.enable answered, no X.disable since). */
  domains: Map<string, Set<string>>;
  inFlight: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** The state behind each session handed out, for `domainEnabled`. */
const stateOf = new WeakMap<TabSession, TabState>();

/**
 * Whether `domain` ("Runtime", "Page", …) was enabled through `session.send` in the page's session
 * (or child `sessionId`) and not disabled since. False for sessions not made here (test fakes).
 */
export function domainEnabled(session: TabSession, domain: string, sessionId?: string): boolean {
  return stateOf.get(session)?.domains.get(sessionId ?? "")?.has(domain) ?? false;
}

/** A new tab's state and its session; `touch` restarts the tab's idle timer. */
export function newTabState(
  tabId: number,
  sendMs: number,
  touch: (state: TabState) => void,
): TabState {
  const session: TabSession = {
    tabId,
    async send<T>(
      method: string,
      params?: CdpParams,
      options?: { sessionId?: string; timeoutMs?: number },
    ): Promise<T> {
      const state = stateOf.get(session);
      if (!state?.live) {
        throw new CdpError(
          `${method}: hub's debugger is no longer attached to tab ${tabId}; try the call again`,
        );
      }
      state.inFlight++;
      touch(state);
      try {
        const timeoutMs = options?.timeoutMs ?? sendMs;
        const answer = await sendBounded<T>(tabId, method, params, options?.sessionId, timeoutMs);
        noteDomain(state, method, options?.sessionId ?? "");
        return (answer ?? {}) as T;
      } finally {
        state.inFlight--;
        touch(state);
      }
    },
    children() {
      return [...(stateOf.get(session)?.children.values() ?? [])].map((c) => ({ ...c }));
    },
  };
  const state: TabState = {
    tabId,
    session,
    attached: false,
    ready: false,
    live: true,
    children: new Map(),
    refused: new Set(),
    childHooks: new Set(),
    domains: new Map(),
    inFlight: 0,
  };
  stateOf.set(session, state);
  return state;
}

/** Remembers an answered `X.enable` / `X.disable` in session `key` ("" = the page). */
function noteDomain(state: TabState, method: string, key: string) {
  const [domain, verb] = method.split(".");
  if (verb === "enable") {
    if (!state.domains.has(key)) state.domains.set(key, new Set());
    state.domains.get(key)!.add(domain);
  } else if (verb === "disable") state.domains.get(key)?.delete(domain);
}
