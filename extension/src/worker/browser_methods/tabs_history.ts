/**
 * `tabs.back` / `tabs.forward` (browser_go_back, browser_go_forward): one step through the tab's
 * session history, then wait for the page (a same-document entry made by history.pushState counts
 * as loaded at once). No entry in that direction is NO_HISTORY.
 *
 * The step is taken in the page, with its own `history.back()` / `history.forward()`, which move
 * exactly one entry. Chromium's buttons (and chrome.tabs.goBack / goForward) skip entries whose
 * page was left without a user gesture, which includes every page an extension navigated away from
 * (browser_navigate_tab): after 1 → 2 → 3, back, back, Chromium's Forward jumps from 1 to 3. They
 * are used only where no script runs (a chrome:// page, an error page).
 *
 * A page that asks before it is left (beforeunload) answers at once with that `dialog`.
 */
import { HubError, hubError } from "../../../../protocol/errors.ts";
import type { BrowserInput, LoadedTab } from "../../../../protocol/browser_methods/mod.ts";
import { type MethodContext, targetTab } from "./browser_method.ts";
import { orDialog } from "./dialog_gate.ts";
import { loadedTab, tabActionFailure, watchLoad, watchStart } from "./tab_load.ts";

export type Direction = "back" | "forward";

const TOOL: Record<Direction, string> = { back: "browser_go_back", forward: "browser_go_forward" };
/** How long a page-side step may take to start a navigation before it counts as no history. */
export const PAGE_STEP_START_MS = 1_500;

/** Chromium's answer when there is no entry: "Cannot find a next page in history." */
export function isNoHistoryError(error: unknown): boolean {
  return /history/i.test((error as Error)?.message ?? String(error));
}

export function noHistory(tabId: number, direction: Direction, url: string | undefined) {
  const other = direction === "back" ? "browser_go_forward" : "browser_go_back";
  return hubError(
    "NO_HISTORY",
    `Tab ${tabId} (${url ?? "unknown url"}) has no page to go ${direction} to in its history. ` +
      `Use browser_navigate_tab to load a URL, or ${other} for the other direction.`,
  );
}

type PageStep = "none" | "going" | "maybe";

/** Runs in the page; self-contained. */
function stepInPage(direction: Direction): PageStep {
  if (history.length <= 1) return "none";
  const nav = (globalThis as { navigation?: { canGoBack: boolean; canGoForward: boolean } })
    .navigation;
  const sure = direction === "back" ? nav?.canGoBack : nav?.canGoForward;
  if (direction === "back") history.back();
  else history.forward();
  // The Navigation API sees only this origin's entries: false may still be a step elsewhere.
  return sure ? "going" : "maybe";
}

/**
 * Steps with the page's own history: true when a navigation started, false when there is no entry,
 * undefined when no script runs in the page.
 */
async function stepInTab(tabId: number, direction: Direction): Promise<boolean | undefined> {
  const start = watchStart(tabId, PAGE_STEP_START_MS);
  const step = await chrome.scripting.executeScript({
    target: { tabId },
    func: stepInPage,
    args: [direction],
  }).then((frames) => frames[0]?.result as PageStep | undefined, () => undefined);
  if (step === "maybe") return await start.started;
  start.cancel();
  return step === undefined ? undefined : step === "going";
}

/** Chromium's own step, which skips entries left without a user gesture. */
async function stepInBrowser(tabId: number, direction: Direction): Promise<boolean> {
  try {
    await (direction === "back" ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
    return true;
  } catch (error) {
    if (isNoHistoryError(error)) return false;
    throw error;
  }
}

async function step(tabId: number, direction: Direction, url: string | undefined) {
  const stepped = (await stepInTab(tabId, direction)) ?? (await stepInBrowser(tabId, direction));
  if (!stepped) throw noHistory(tabId, direction, url);
}

/** The handler of `tabs.back` or `tabs.forward` (both take the same input). */
export function historyMethod(direction: Direction) {
  const what = TOOL[direction];
  return async (
    input: BrowserInput<"tabs.back">,
    { log, dialogs }: MethodContext,
  ): Promise<LoadedTab> => {
    const tab = await targetTab(input);
    const tabId = tab.id!;
    const watch = input.waitForLoad ? watchLoad(tabId) : undefined;
    const stepped = (async () => {
      try {
        await step(tabId, direction, tab.url);
      } catch (error) {
        watch?.cancel();
        throw error instanceof HubError ? error : await tabActionFailure(tabId, what, error);
      }
      return watch ? await watch.loaded : false;
    })();
    const { loaded, dialog } = await orDialog(dialogs, tabId, stepped);
    const now = await loadedTab(tabId, loaded, what);
    log.debug(`Went ${direction} in tab ${tabId}`, { from: tab.url, to: now.url });
    return dialog ? { ...now, dialog } : now;
  };
}

export const tabsBack = historyMethod("back");
export const tabsForward = historyMethod("forward");
