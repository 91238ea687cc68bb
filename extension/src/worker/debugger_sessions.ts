/**
 * The tabs' debugger sessions (`chrome.debugger`), shared by every method that needs the Chrome
 * DevTools Protocol: trusted input, dialogs, file choosers, response bodies, PDFs, element
 * screenshots and console reads.
 *
 * A tab is attached only when a call asks for its session, and detached after IDLE_MS without a
 * command (unless something holds it: an open dialog), when the tab closes, when the setting turns
 * the debugger off, and when the hub disconnects. Chromium shows its "started debugging this
 * browser" bar while any tab is attached. Out-of-process frames are reached through child sessions
 * (Target.setAutoAttach with flatten; `sessionId` in chrome.debugger since Chrome 125). Every
 * command is bounded: a stuck page cannot hold a call.
 */
import { hubError } from "../../../protocol/errors.ts";

export type DebuggerMode = "auto" | "off";
export type CdpParams = Record<string, unknown>;
export interface CdpEvent {
  tabId: number;
  sessionId?: string;
  method: string;
  params: CdpParams;
}

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

export interface DebuggerSessions {
  mode(): DebuggerMode;
  /** From the hub's config (sync.full `debugger`) or the side panel; "off" detaches every tab. */
  setMode(mode: DebuggerMode): Promise<void>;
  /**
   * The tab's session, attaching when needed (protocol 1.3; Target.setAutoAttach {autoAttach,
   * flatten, waitForDebuggerOnStart: false}; then every onSession hook, for the page and each child
   * session as it attaches). Resets the tab's idle timer. Throws HubError DEBUGGER_OFF (mode off),
   * DEBUGGER_BUSY (another client holds the tab), NOT_A_WEB_PAGE (a page hub never attaches to),
   * TAB_NOT_FOUND. Concurrent calls for one tab share one attach.
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

/** The protocol version hub asks for. */
const PROTOCOL = "1.3";
/** Detach after this long without a command. */
export const IDLE_MS = 30_000;
/** The longest one command (and the attach, and the detach) may take by default. */
export const SEND_MS = 5_000;

/** Where the sessions log what the user may want to know (the extension's log). */
export interface SessionsLog {
  debug?(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
}

/** A command that failed: what CDP answered (`cdpCode`), or that it did not answer in time. */
export class CdpError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
    readonly cdpCode?: number,
  ) {
    super(message);
    this.name = "CdpError";
  }
}

/** Whether `error` is a command that did not answer within its bound. */
export function isSendTimeout(error: unknown): boolean {
  return error instanceof CdpError && error.timedOut;
}

/** `promise`, or a timed-out CdpError after `ms`. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CdpError(`${what} did not answer within ${ms} ms`, true)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Chromium's error text for a failed command: often `{"code":-32000,"message":"…"}`. */
function cdpFailure(method: string, error: unknown): CdpError {
  const text = String((error as Error)?.message ?? error);
  try {
    const parsed = JSON.parse(text) as { code?: number; message?: string };
    if (parsed && typeof parsed.message === "string") {
      return new CdpError(`${method}: ${parsed.message}`, false, parsed.code);
    }
  } catch { /* plain text */ }
  return new CdpError(`${method}: ${text}`);
}

/**
 * Why hub never attaches to `url` (a sentence), or undefined for a web page it may attach to:
 * only http(s) pages, and never the Chrome Web Store (Chromium refuses it anyway).
 */
export function neverAttachReason(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "no web page";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `a ${parsed.protocol} page`;
  }
  const host = parsed.hostname.toLowerCase();
  if (
    host === "chromewebstore.google.com" ||
    (host === "chrome.google.com" && parsed.pathname.startsWith("/webstore"))
  ) return "the Chrome Web Store";
  return undefined;
}

type Hook = (session: TabSession, sessionId: string | undefined) => Promise<void>;

interface Child {
  sessionId: string;
  targetId: string;
  url: string;
}

/** One tab's attachment, from the attach call until it is detached. */
interface TabState {
  tabId: number;
  session: TabSession;
  /** True once chrome.debugger attached: attachedTabs() lists it, detaching tells listeners. */
  attached: boolean;
  /** True once the page's hooks ran and its frames were reached: session() hands it out. */
  ready: boolean;
  /** False once detached: its session's commands fail. */
  live: boolean;
  children: Map<string, Child>;
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

export function createDebuggerSessions(
  options: { idleMs?: number; sendMs?: number; log?: SessionsLog } = {},
): DebuggerSessions {
  const idleMs = options.idleMs ?? IDLE_MS;
  const sendMs = options.sendMs ?? SEND_MS;
  const log: SessionsLog = options.log ?? { info: console.info, warn: console.warn };
  let currentMode: DebuggerMode = "auto";
  /** The mode now (a function, so checks after an await read the current value). */
  const mode = () => currentMode;
  const tabs = new Map<number, TabState>();
  const attaching = new Map<number, Promise<TabState>>();
  const detaching = new Map<number, Promise<void>>();
  const holds = new Map<number, Set<object>>();
  const hooks: Hook[] = [];
  const eventListeners = new Set<(event: CdpEvent) => void>();
  const detachListeners = new Set<(tabId: number, reason: string) => void>();
  const changeListeners = new Set<() => void>();
  /** The chrome.debugger object the listeners are on (tests swap `chrome`). */
  let listening: unknown;

  function changed() {
    for (const listener of [...changeListeners]) {
      try {
        listener();
      } catch (error) {
        log.warn("A debugger change listener failed", error);
      }
    }
  }

  function ensureListeners() {
    const api = globalThis.chrome?.debugger;
    if (!api || listening === api) return;
    listening = api;
    api.onEvent.addListener(onChromeEvent);
    api.onDetach.addListener(onChromeDetach);
    globalThis.chrome.tabs?.onRemoved?.addListener((tabId) => {
      if (tabs.has(tabId)) void detach(tabId, "tab_closed");
    });
    // A prerendered page swapped in: the old tab id is gone.
    globalThis.chrome.tabs?.onReplaced?.addListener((_added, removed) => {
      if (tabs.has(removed)) void detach(removed, "tab_closed");
    });
  }

  function onChromeEvent(
    source: chrome.debugger.DebuggerSession,
    method: string,
    params?: CdpParams,
  ) {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    const state = tabs.get(tabId);
    if (!state?.live) return;
    const p = params ?? {};
    if (method === "Target.attachedToTarget") childAttached(state, p);
    else if (method === "Target.detachedFromTarget") {
      state.children.delete(String(p.sessionId));
      state.domains.delete(String(p.sessionId));
    } else if (method === "Target.targetInfoChanged") {
      const info = p.targetInfo as { targetId?: string; url?: string } | undefined;
      for (const child of state.children.values()) {
        if (child.targetId === info?.targetId) child.url = String(info.url ?? child.url);
      }
    }
    const event: CdpEvent = { tabId, sessionId: source.sessionId, method, params: p };
    for (const listener of [...eventListeners]) {
      try {
        listener(event);
      } catch (error) {
        log.warn(`A debugger event listener failed on ${method}`, error);
      }
    }
  }

  function onChromeDetach(source: chrome.debugger.Debuggee, reason: string) {
    const tabId = source.tabId;
    if (tabId === undefined || !tabs.has(tabId)) return;
    if (reason === "canceled_by_user") {
      log.info(
        `The debugger was detached from tab ${tabId}: someone pressed Cancel on Chromium's ` +
          `"started debugging this browser" bar. hub attaches again when a call needs it.`,
      );
    }
    forget(tabs.get(tabId)!, reason);
  }

  /** An out-of-process frame's session: remembered, auto-attach for its own frames, its hooks. */
  function childAttached(state: TabState, p: CdpParams) {
    const sessionId = String(p.sessionId ?? "");
    const info = (p.targetInfo ?? {}) as { targetId?: string; type?: string; url?: string };
    if (!sessionId || info.type !== "iframe") return;
    state.children.set(sessionId, {
      sessionId,
      targetId: String(info.targetId ?? ""),
      url: String(info.url ?? ""),
    });
    log.debug?.(
      `Reached an out-of-process frame of tab ${state.tabId}: ${String(info.url).slice(0, 200)}`,
    );
    const run = (async () => {
      await autoAttach(state.session, sessionId);
      await runHooks(state, sessionId);
    })().catch((error) => log.warn(`Child session setup failed in tab ${state.tabId}`, error));
    state.childHooks.add(run);
    void run.finally(() => state.childHooks.delete(run));
  }

  async function autoAttach(session: TabSession, sessionId?: string) {
    const base = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };
    try {
      await session.send("Target.setAutoAttach", { ...base, filter: [{ type: "iframe" }] }, {
        sessionId,
      });
    } catch (error) {
      if (isSendTimeout(error)) throw error;
      // An older Chromium without target filters: every child type, iframes kept above.
      await session.send("Target.setAutoAttach", base, { sessionId });
    }
  }

  /** Every hook for one new session, side by side (they do not depend on each other), bounded. */
  async function runHooks(state: TabState, sessionId: string | undefined) {
    await Promise.all([...hooks].map(async (hook) => {
      if (!state.live) return;
      try {
        await bounded(hook(state.session, sessionId), sendMs * 2, "a debugger session hook");
      } catch (error) {
        log.warn(`A debugger session hook failed in tab ${state.tabId}`, error);
      }
    }));
  }

  function touch(state: TabState) {
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = undefined;
    if (!state.live) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (!state.live) return;
      if (state.inFlight > 0 || (holds.get(state.tabId)?.size ?? 0) > 0) touch(state);
      else void detach(state.tabId, "idle");
    }, idleMs);
  }

  function makeSession(tabId: number): TabSession {
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
        const target: chrome.debugger.DebuggerSession = { tabId };
        if (options?.sessionId) target.sessionId = options.sessionId;
        state.inFlight++;
        touch(state);
        try {
          const answer = await bounded(
            Promise.resolve().then(() => chrome.debugger.sendCommand(target, method, params))
              .catch((error: unknown) => {
                throw cdpFailure(method, error);
              }),
            options?.timeoutMs ?? sendMs,
            `${method} in tab ${tabId}`,
          );
          const [domain, verb] = method.split(".");
          const key = options?.sessionId ?? "";
          if (verb === "enable") {
            if (!state.domains.has(key)) state.domains.set(key, new Set());
            state.domains.get(key)!.add(domain);
          } else if (verb === "disable") state.domains.get(key)?.delete(domain);
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
    return session;
  }

  /** Drops the tab's state (already detached, or about to be) and tells the listeners. */
  function forget(state: TabState, reason: string) {
    if (tabs.get(state.tabId) !== state) return;
    const wasAttached = state.attached;
    state.live = false;
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = undefined;
    tabs.delete(state.tabId);
    holds.delete(state.tabId);
    state.children.clear();
    if (!wasAttached) return;
    log.info(`Detached the debugger from tab ${state.tabId} (${reason})`);
    for (const listener of [...detachListeners]) {
      try {
        listener(state.tabId, reason);
      } catch (error) {
        log.warn("A debugger detach listener failed", error);
      }
    }
    changed();
  }

  function detach(tabId: number, reason: string): Promise<void> {
    const state = tabs.get(tabId);
    if (!state) return detaching.get(tabId) ?? Promise.resolve();
    forget(state, reason);
    const done = bounded(
      Promise.resolve().then(() => chrome.debugger.detach({ tabId })),
      sendMs,
      `detach from tab ${tabId}`,
    )
      .catch(() => {}) // already gone (tab closed, user cancelled)
      .finally(() => {
        if (detaching.get(tabId) === done) detaching.delete(tabId);
      });
    detaching.set(tabId, done);
    return done;
  }

  async function attachTab(tabId: number): Promise<TabState> {
    await detaching.get(tabId);
    await leftOver;
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) {
      throw hubError("TAB_NOT_FOUND", `No tab ${tabId} is open. Call browser_list_tabs for ids.`);
    }
    const url = tab.url || tab.pendingUrl || "";
    const never = neverAttachReason(url);
    if (never) {
      throw hubError(
        "NOT_A_WEB_PAGE",
        `Tab ${tabId} shows ${never} (${url.slice(0, 200) || "no address"}). hub attaches its ` +
          "debugger only to http(s) web pages: never to browser pages (chrome://, devtools://), " +
          "extensions' pages, the Chrome Web Store, view-source: or file: pages. Navigate the tab " +
          "to a web site first.",
      );
    }
    ensureListeners();
    const session = makeSession(tabId);
    const state: TabState = {
      tabId,
      session,
      attached: false,
      ready: false,
      live: true,
      children: new Map(),
      childHooks: new Set(),
      domains: new Map(),
      inFlight: 0,
    };
    stateOf.set(session, state);
    tabs.set(tabId, state);
    try {
      await attachChrome(tabId);
    } catch (error) {
      forget(state, "attach_failed");
      throw error;
    }
    if (!state.live || mode() === "off") {
      // Turned off, or the tab closed, while attaching.
      if (tabs.get(tabId) === state) forget(state, "off");
      await bounded(chrome.debugger.detach({ tabId }), sendMs, "detach").catch(() => {});
      if (mode() === "off") throw offError();
      throw hubError("TAB_NOT_FOUND", `Tab ${tabId} closed while hub attached its debugger.`);
    }
    state.attached = true;
    log.info(`Attached the debugger to tab ${tabId} (${new URL(url).host})`);
    touch(state);
    changed();
    // The page's hooks and reaching its out-of-process frames, side by side: the first attach
    // costs one round of commands, not a row of them.
    await Promise.all([
      runHooks(state, undefined),
      autoAttach(session).catch((error) =>
        log.warn(`Could not reach the out-of-process frames of tab ${tabId}`, error)
      ),
    ]);
    // The frames there now attached before setAutoAttach answered: their hooks are running.
    if (state.childHooks.size > 0) {
      await bounded(Promise.all([...state.childHooks]), sendMs * 2, "child sessions").catch(
        () => {},
      );
    }
    state.ready = true;
    return state;
  }

  /** chrome.debugger.attach, bounded; a stale attachment of this extension is taken over. */
  async function attachChrome(tabId: number) {
    const target = { tabId };
    const once = async () => {
      const attach = chrome.debugger.attach(target, PROTOCOL);
      try {
        await bounded(attach, sendMs, `attach to tab ${tabId}`);
      } catch (error) {
        // An attach that answers after its bound is let go of at once.
        if (isSendTimeout(error)) {
          void attach.then(() => chrome.debugger.detach(target)).catch(() => {});
        }
        throw error;
      }
    };
    try {
      await once();
    } catch (first) {
      const text = String((first as Error)?.message ?? first);
      if (/already attached/i.test(text)) {
        // This extension's own attachment from before a worker restart detaches; another
        // client's does not.
        const ours = await bounded(chrome.debugger.detach(target), sendMs, "detach").then(
          () => true,
          () => false,
        );
        if (ours) {
          try {
            return await once();
          } catch (second) {
            throw attachError(tabId, second);
          }
        }
      }
      throw attachError(tabId, first);
    }
  }

  function attachError(tabId: number, error: unknown) {
    const text = String((error as Error)?.message ?? error).slice(0, 300);
    if (/already attached|another debugger/i.test(text)) {
      return hubError(
        "DEBUGGER_BUSY",
        `Another debugger holds tab ${tabId} (Chromium said: ${text}). Close DevTools or the ` +
          "other debugging extension on that tab, then try again.",
        { tabId },
      );
    }
    if (/cannot access|cannot attach|not allowed/i.test(text)) {
      return hubError(
        "NOT_A_WEB_PAGE",
        `Chromium does not let extensions debug tab ${tabId} (${text}). Navigate the tab to a ` +
          "web site first.",
      );
    }
    if (isSendTimeout(error)) {
      return hubError(
        "TIMEOUT",
        `Attaching the debugger to tab ${tabId} did not finish within ${sendMs} ms. Try again.`,
      );
    }
    return new CdpError(`Could not attach the debugger to tab ${tabId}: ${text}`);
  }

  function offError() {
    return hubError(
      "DEBUGGER_OFF",
      "This needs the browser's debugger, and hub's `debugger` setting is `off`. Turn it on with " +
        "`hub config set debugger auto`, or with the Debugger switch in hub's side panel.",
    );
  }

  async function detachEvery(reason: string) {
    await Promise.all([...tabs.keys()].map((tabId) => detach(tabId, reason)));
  }

  ensureListeners();

  /**
   * A worker that restarted lost its sessions while Chromium kept them (and its bar): they are
   * detached once at start. Detaching detaches this extension's own attachments only.
   */
  async function detachLeftOver() {
    const api = globalThis.chrome?.debugger;
    if (typeof api?.getTargets !== "function") return;
    const targets = await bounded(api.getTargets(), sendMs, "getTargets").catch(() => []);
    await Promise.all(
      targets.filter((t) => t.attached && t.tabId !== undefined && !tabs.has(t.tabId))
        .map((t) =>
          bounded(
            Promise.resolve().then(() => api.detach({ tabId: t.tabId })),
            sendMs,
            "detach",
          ).then(() => log.info(`Detached a debugger session left from before: tab ${t.tabId}`))
            .catch(() => {})
        ),
    );
  }
  const leftOver = detachLeftOver().catch(() => {});

  return {
    mode,
    async setMode(next) {
      if (next === currentMode) return;
      currentMode = next;
      changed();
      if (next === "off") await detachEvery("off");
    },
    async session(tabId) {
      if (currentMode === "off") throw offError();
      const ready = tabs.get(tabId);
      if (ready?.ready && ready.live) {
        touch(ready);
        return ready.session;
      }
      let pending = attaching.get(tabId);
      if (!pending) {
        pending = attachTab(tabId).finally(() => attaching.delete(tabId));
        attaching.set(tabId, pending);
      }
      const state = await pending;
      if (!state.live) {
        if (mode() === "off") throw offError();
        throw new CdpError(`hub's debugger was detached from tab ${tabId} while attaching`);
      }
      touch(state);
      return state.session;
    },
    current(tabId) {
      const state = tabs.get(tabId);
      return state?.ready && state.live ? state.session : undefined;
    },
    onSession(hook) {
      hooks.push(hook);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onDetach(listener) {
      detachListeners.add(listener);
      return () => detachListeners.delete(listener);
    },
    hold(tabId) {
      const token = {};
      if (!holds.has(tabId)) holds.set(tabId, new Set());
      const set = holds.get(tabId)!;
      set.add(token);
      return () => {
        if (!set.delete(token)) return;
        if (set.size === 0 && holds.get(tabId) === set) holds.delete(tabId);
        const state = tabs.get(tabId);
        if (state?.live) touch(state);
      };
    },
    attachedTabs: () => [...tabs.values()].filter((s) => s.attached && s.live).map((s) => s.tabId),
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    detachAll: () => detachEvery("hub_disconnected"),
  };
}
