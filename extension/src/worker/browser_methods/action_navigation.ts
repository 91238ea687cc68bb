/**
 * Whether an element action (a click, Enter, a submit) navigated its tab or opened a new one, and
 * waiting for the new page, so "click, then read" reads the new page. The tab's events are watched
 * from before the action until a grace window after it answered: a navigation the action started
 * (a link, a form, a page script changing `location`) begins within it. The page itself watches
 * the action too (dom_call.ts): when it saw nothing that navigates, the window is
 * QUIET_GRACE_MS, so such an action answers as fast as before; otherwise NAVIGATION_GRACE_MS.
 * Only a navigation begun does the call wait for, to the new document's load, bounded like
 * browser_navigate_tab's (docs/decisions/064).
 */
import type {
  ActionNavigation,
  BrowserInput,
  DomAnswer,
  NavigatingDomMethod,
} from "../../../../protocol/browser_methods/mod.ts";
import { type MethodContext, targetTab } from "./browser_method.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { NAVIGATE_WAIT_MS } from "./tab_load.ts";

/**
 * How long after the action answered a navigation may still begin. Chromium starts a link's
 * navigation at once (the worker hears of it before the action's answer) and a form's one task
 * later (measured 1 to 12 ms after the answer on a busy two-core machine); 100 ms leaves room for
 * a page whose main thread is busy. Only an action during which the page saw a link clicked, a form
 * submitted or a `navigate` event (or a page without the Navigation API) waits for it when no
 * navigation comes. A page script that navigates after a timer or a request is not waited for:
 * wait with browser_wait_for_element.
 */
export const NAVIGATION_GRACE_MS = 100;

/**
 * The grace window when the page saw nothing that navigates during the action (dom_call.ts's
 * PageNavigation `none`): no link, no submission, no `navigate` event. Only a page script's
 * `window.open` escapes the page's watch, and Chromium creates that tab while `window.open` runs,
 * so its `tabs.onCreated` reaches the worker before the action's answer: nothing to wait for.
 */
const QUIET_GRACE_MS = 0;

/** How long to wait for a navigation to begin after the action answered, by what the page saw. */
export function graceFor(page: PageNavigation | undefined, graceMs = NAVIGATION_GRACE_MS): number {
  return page === "none" ? QUIET_GRACE_MS : graceMs;
}

export interface NavigationOptions {
  /**
   * Wait for a navigation to begin (the grace window) and for the new page's load (the method's
   * `waitForLoad`); false reports only what the browser reported before the action answered.
   */
  wait: boolean;
  /** The grace window when the page saw a possible navigation or could not tell. */
  graceMs?: number;
  /** The most the whole call waits for the load, from the start of the action. */
  timeoutMs?: number;
}

type FrameDetails = { tabId: number; frameId: number; url?: string };
type TargetDetails = { sourceTabId: number; tabId: number; url: string };

/** What the tab's events said since the watch began. */
interface Seen {
  /** Main-frame navigations begun and not yet committed or failed. */
  pending: number;
  started: boolean;
  /** The latest navigation committed a new document / that document finished loading. */
  committed: boolean;
  completed: boolean;
  failed: boolean;
  sameDocument: boolean;
  closed: boolean;
  newTab?: { tabId: number; url: string };
}

// deno-lint-ignore no-explicit-any
type Listening = [chrome.events.Event<(...args: any[]) => void>, (...args: any[]) => void];

/**
 * The listeners that keep `seen` up to date for `tabId`: main-frame navigations, and the tabs it
 * opens. Each calls `changed` with its update.
 */
function tabListeners(tabId: number, seen: Seen, changed: (update: () => void) => void) {
  const main = (d: FrameDetails) => d.tabId === tabId && d.frameId === 0;
  const nav = chrome.webNavigation;
  const pairs: Listening[] = [
    [nav.onBeforeNavigate, (d: FrameDetails) =>
      main(d) && changed(() => {
        seen.started = true;
        seen.pending++;
      })],
    [nav.onCommitted, (d: FrameDetails) =>
      main(d) && changed(() => {
        seen.started = seen.committed = true;
        seen.completed = false;
        seen.pending = Math.max(0, seen.pending - 1);
      })],
    [
      nav.onCompleted,
      (d: FrameDetails) => main(d) && seen.committed && changed(() => (seen.completed = true)),
    ],
    [nav.onErrorOccurred, (d: FrameDetails) =>
      main(d) && changed(() => {
        seen.failed = true;
        seen.pending = Math.max(0, seen.pending - 1);
      })],
    [
      nav.onHistoryStateUpdated,
      (d: FrameDetails) => main(d) && changed(() => (seen.started = seen.sameDocument = true)),
    ],
    [
      nav.onReferenceFragmentUpdated,
      (d: FrameDetails) => main(d) && changed(() => (seen.started = seen.sameDocument = true)),
    ],
    [nav.onCreatedNavigationTarget, (d: TargetDetails) =>
      d.sourceTabId === tabId &&
      changed(() => (seen.newTab = { tabId: d.tabId, url: d.url }))],
    [
      chrome.tabs.onCreated,
      (tab: chrome.tabs.Tab) =>
        tab.openerTabId === tabId && tab.id !== undefined && !seen.newTab &&
        changed(() => (seen.newTab = { tabId: tab.id!, url: tab.pendingUrl || tab.url || "" })),
    ],
    [chrome.tabs.onRemoved, (id: number) => id === tabId && changed(() => (seen.closed = true))],
  ];
  return pairs;
}

/** Watches `tabId` for navigations and the tabs it opens; `changed` wakes a waiter. */
function watchTab(tabId: number) {
  const seen: Seen = {
    pending: 0,
    started: false,
    committed: false,
    completed: false,
    failed: false,
    sameDocument: false,
    closed: false,
  };
  let wake = () => {};
  const pairs = tabListeners(tabId, seen, (update) => {
    update();
    wake();
  });
  for (const [event, listener] of pairs) event.addListener(listener);
  return {
    seen,
    /** Resolves when `done()` holds, or after `ms`. */
    until(done: () => boolean, ms: number): Promise<void> {
      if (done() || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          wake = () => {};
          resolve();
        }
        wake = () => done() && finish();
      });
    },
    stop() {
      for (const [event, listener] of pairs) event.removeListener(listener);
    },
  };
}

/** The tab's page has settled: loaded, failed, or changed in place. */
function settled(seen: Seen): boolean {
  if (seen.closed || seen.sameDocument) return true;
  if (seen.pending > 0) return false;
  return (seen.committed && seen.completed) || (!seen.committed && seen.failed);
}

/**
 * Runs `action` on `tabId` and adds what it did to the tab to its answer (ActionNavigation):
 * `navigated`, `url`, `title` and `loaded` when it navigated the tab (after waiting for the load
 * unless `wait` is false), `newTab` when it opened one. A failed action fails as it did.
 * `action` reports what the page saw through `onPage` (graceFor); not reporting means "could
 * not tell", which waits the full grace window.
 * With `wait` false nothing is waited for, so a navigation the browser reports only after the
 * action answered (a form's submission, one task later) is not in the answer.
 */
export async function withNavigation<T extends object>(
  tabId: number,
  options: NavigationOptions,
  action: (onPage: (seen: PageNavigation) => void) => Promise<T>,
): Promise<T & ActionNavigation> {
  const began = Date.now();
  const watch = watchTab(tabId);
  try {
    let page: PageNavigation | undefined;
    const value = await action((seen) => (page = seen));
    const { seen } = watch;
    // waitForLoad: false waits for nothing: it reports only what the browser already told.
    await watch.until(
      () => seen.started || seen.closed || seen.newTab !== undefined,
      options.wait ? graceFor(page, options.graceMs) : 0,
    );
    const added: ActionNavigation = {};
    if (seen.started && !seen.closed) {
      if (options.wait) {
        const left = began + (options.timeoutMs ?? NAVIGATE_WAIT_MS) - Date.now();
        await watch.until(() => settled(seen), left);
      }
      const loaded = options.wait && settled(seen) && !seen.closed &&
        (seen.sameDocument || seen.completed);
      const tab = await chrome.tabs.get(tabId).catch(() => undefined);
      if (tab) {
        Object.assign(added, {
          navigated: true,
          url: tab.pendingUrl || tab.url || "",
          title: tab.title ?? "",
          loaded,
        });
      }
    }
    if (seen.newTab) added.newTab = await withUrl(seen.newTab);
    return { ...value, ...added };
  } finally {
    watch.stop();
  }
}

/** The new tab with its URL, read from the tab when its creation did not carry one yet. */
async function withUrl(newTab: { tabId: number; url: string }) {
  if (newTab.url) return newTab;
  const tab = await chrome.tabs.get(newTab.tabId).catch(() => undefined);
  return { tabId: newTab.tabId, url: tab?.pendingUrl || tab?.url || "" };
}

/**
 * Runs DOM method `op` (domCall) as an action that may navigate the tab when `mayNavigate` (a
 * click; Enter; a submit), adding what it did to the tab to its answer.
 */
export async function navigatingDomCall<Op extends NavigatingDomMethod>(
  op: Op,
  input: BrowserInput<Op>,
  context: MethodContext,
  tool: string,
  mayNavigate: boolean,
): Promise<DomAnswer & ActionNavigation> {
  if (!mayNavigate) return await domCall(op, input, context, tool);
  // A given tabId is checked by domCall (TAB_NOT_FOUND): looking it up here too would cost a
  // round trip on every action.
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  return await withNavigation(
    tabId,
    { wait: input.waitForLoad },
    (onPage) => domCall(op, { ...input, tabId }, context, tool, onPage),
  );
}
