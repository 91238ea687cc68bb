/**
 * Waiting for a tab to finish loading after an action that navigates it (navigate, open, reload,
 * back, forward), and the compact answer those tools give. A wait stops short of the hub's 30 s
 * call timeout and then answers `loaded: false` rather than failing, since the navigation itself
 * happened. A same-document change (history.pushState entry, #fragment) loads nothing, so it
 * counts as loaded as soon as it happened.
 */
import type { LoadedTab } from "../../../../protocol/browser_methods/mod.ts";
import { HubError, hubError } from "../../../../protocol/errors.ts";

export const NAVIGATE_WAIT_MS = 25_000;
/** How often the tab's status is read, for loads whose events came before the watch began. */
export const LOAD_POLL_MS = 200;

export interface LoadWatch {
  /** True once the navigation finished loading; false when the tab closed or time ran out. */
  loaded: Promise<boolean>;
  /** The action failed: stop watching (`loaded` resolves false). */
  cancel(): void;
}

export interface WatchOptions {
  timeoutMs?: number;
  pollMs?: number;
  /**
   * The navigation has already begun (a tab just created with its URL). Otherwise a "complete"
   * only counts after the tab was seen loading or committing a new document.
   */
  started?: boolean;
}

type FrameDetails = { tabId: number; frameId: number };

// deno-lint-ignore no-explicit-any
type Listening = [chrome.events.Event<(...args: any[]) => void>, (...args: any[]) => void];

/** Adds each listener to its Chromium event; returns the function that removes them all. */
function listen(pairs: Listening[]): () => void {
  for (const [event, listener] of pairs) event.addListener(listener);
  return () => {
    for (const [event, listener] of pairs) event.removeListener(listener);
  };
}

/** Starts watching `tabId`; call it before the action so no event is missed. */
export function watchLoad(tabId: number, options: WatchOptions = {}): LoadWatch {
  let started = options.started ?? false;
  let resolve!: (value: boolean) => void;
  const loaded = new Promise<boolean>((r) => (resolve = r));
  const mainFrame = (d: FrameDetails) => d.tabId === tabId && d.frameId === 0;

  const onUpdated = (id: number, info: { status?: string }) => {
    if (id !== tabId) return;
    if (info.status === "loading") started = true;
    else if (info.status === "complete" && started) done(true);
  };
  const onCommitted = (d: FrameDetails) => {
    if (mainFrame(d)) started = true;
  };
  const onCompleted = (d: FrameDetails) => {
    if (mainFrame(d) && started) done(true);
  };
  const onSameDocument = (d: FrameDetails) => {
    if (mainFrame(d)) done(true);
  };
  const onRemoved = (id: number) => {
    if (id === tabId) done(false);
  };
  const poll = async () => {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) done(false);
    else if (started && tab.status === "complete" && !tab.pendingUrl) done(true);
  };

  const nav = chrome.webNavigation;
  const timer = setTimeout(() => done(false), options.timeoutMs ?? NAVIGATE_WAIT_MS);
  const poller = setInterval(() => void poll(), options.pollMs ?? LOAD_POLL_MS);
  const stop = listen([
    [chrome.tabs.onUpdated, onUpdated],
    [chrome.tabs.onRemoved, onRemoved],
    [nav.onCommitted, onCommitted],
    [nav.onCompleted, onCompleted],
    [nav.onHistoryStateUpdated, onSameDocument],
    [nav.onReferenceFragmentUpdated, onSameDocument],
  ]);

  let finished = false;
  function done(value: boolean) {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearInterval(poller);
    stop();
    resolve(value);
  }

  return { loaded, cancel: () => done(false) };
}

export interface StartWatch {
  /** True once the tab started a navigation; false when it closed or time ran out. */
  started: Promise<boolean>;
  cancel(): void;
}

/** Watches `tabId` for the start of a navigation (or a URL change in place). */
export function watchStart(tabId: number, timeoutMs: number): StartWatch {
  let resolve!: (value: boolean) => void;
  const started = new Promise<boolean>((r) => (resolve = r));
  const onFrame = (d: FrameDetails) => {
    if (d.tabId === tabId && d.frameId === 0) done(true);
  };
  const onUpdated = (id: number, info: { status?: string; url?: string }) => {
    if (id === tabId && (info.status === "loading" || info.url !== undefined)) done(true);
  };
  const onRemoved = (id: number) => {
    if (id === tabId) done(false);
  };
  const nav = chrome.webNavigation;
  const timer = setTimeout(() => done(false), timeoutMs);
  const stop = listen([
    [chrome.tabs.onUpdated, onUpdated],
    [chrome.tabs.onRemoved, onRemoved],
    [nav.onBeforeNavigate, onFrame],
    [nav.onCommitted, onFrame],
    [nav.onHistoryStateUpdated, onFrame],
    [nav.onReferenceFragmentUpdated, onFrame],
  ]);

  let finished = false;
  function done(value: boolean) {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    stop();
    resolve(value);
  }

  return { started, cancel: () => done(false) };
}

/**
 * The tab as it is now, with whether the wait saw it load; TAB_CLOSED when it went away. The url
 * is the one still loading when there is one (waitForLoad: false, or the wait ran out).
 */
export async function loadedTab(tabId: number, loaded: boolean, what: string): Promise<LoadedTab> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) {
    throw hubError("TAB_CLOSED", `Tab ${tabId} was closed while ${what} ran.`);
  }
  return { tabId, url: tab.pendingUrl || tab.url || "", title: tab.title ?? "", loaded };
}

/**
 * Runs a navigating `action` on `tabId`, waiting for its load unless `wait` is false. A failed
 * action stops the wait and is turned into an error by `explain`.
 */
export async function navigateAndWait(
  tabId: number,
  wait: boolean,
  action: () => Promise<unknown>,
  explain: (error: unknown) => Promise<Error> | Error,
): Promise<boolean> {
  const watch = wait ? watchLoad(tabId) : undefined;
  try {
    await action();
  } catch (error) {
    watch?.cancel();
    throw await explain(error);
  }
  return watch ? await watch.loaded : false;
}

/** A failed chrome.tabs action: TAB_CLOSED when the tab is gone, else EXTENSION_ERROR. */
export async function tabActionFailure(
  tabId: number,
  what: string,
  error: unknown,
): Promise<HubError> {
  if (error instanceof HubError) return error;
  const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
  if (!exists) {
    return hubError("TAB_CLOSED", `Tab ${tabId} was closed while ${what} ran.`);
  }
  const message = (error as Error)?.message ?? String(error);
  return hubError(
    "EXTENSION_ERROR",
    `The browser could not run ${what} in tab ${tabId}: ${message}`,
  );
}
