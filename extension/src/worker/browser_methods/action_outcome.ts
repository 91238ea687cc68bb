/**
 * What every acting tool adds to its answer, whatever way it acts (trusted input through the
 * debugger, or the DOM kit's events): the navigation it started (action_navigation.ts), the dialog
 * it opened, the download it started; and the choice between the two ways (`trustedSession`).
 *
 * A dialog (`alert`, `confirm`, `prompt`, `beforeunload`) blocks the page: the event that opened
 * it does not finish, and neither does the action. The action races the tab's dialogs
 * (dialogs.ts `race`): as soon as one opens, the tool answers with what it knows so far
 * (`partial`) and `dialog: { type, message, defaultPrompt? }`, without waiting for a navigation.
 * A download the action started (in the tab's downloads since the action began) is added as
 * `download: { filename, url, state, bytes }`.
 */
import type { DialogInfo } from "../../../../protocol/browser_methods/dialogs.ts";
import type { DownloadReport } from "../../../../protocol/browser_methods/downloads.ts";
import type { ActionNavigation } from "../../../../protocol/browser_methods/mod.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { TabSession } from "../debugger_sessions.ts";
import type { MethodContext } from "./browser_method.ts";
import { type NavigationOptions, withNavigation } from "./action_navigation.ts";
import type { PageNavigation } from "./dom_call.ts";

/** What an action adds besides its navigation: the dialog it opened, the download it started. */
export interface ActionExtras {
  dialog?: DialogInfo;
  download?: DownloadReport;
}

/** Any answer's fields (the DOM methods' answers are open records: DomAnswer). */
type Open = { [field: string]: unknown };

/** How long an action whose page saw a possible navigation waits for a download to appear. */
export const DOWNLOAD_WAIT_MS = 300;

export interface ActionOptions {
  /** Watch the tab for a navigation the action starts (click, Enter, submit). */
  navigation?: NavigationOptions;
}

/**
 * Runs `action` on tab `tabId` and adds what it caused: `navigated`/`url`/`title`/`loaded`/
 * `newTab` (with `options.navigation`), `dialog`, `download`. `action` reports what the page saw
 * through `onPage` (PageNavigation) and what the answer holds so far through `partial` (answered
 * with `dialog` when one interrupts it).
 */
export async function runAction<T extends object>(
  tabId: number,
  context: MethodContext,
  options: ActionOptions,
  action: (
    onPage: (seen: PageNavigation) => void,
    partial: (known: object) => void,
  ) => Promise<T>,
): Promise<T & ActionNavigation & ActionExtras & Open> {
  const { dialogs, downloads } = context;
  const since = Date.now();
  let known: object = {};
  let page: PageNavigation | undefined;
  const partial = (more: object) => (known = { ...known, ...more });
  const run = options.navigation
    ? withNavigation(tabId, options.navigation, (onPage) =>
      action((seen) => {
        page = seen;
        onPage(seen);
      }, partial))
    : action((seen) => (page = seen), partial);
  // The action may still settle after a dialog answered the call: nothing waits for it then.
  run.catch(() => {});
  const raced = await dialogs.race(tabId, run);
  if ("dialog" in raced) {
    return { tabId, ...known, dialog: raced.dialog } as unknown as T & ActionExtras & Open;
  }
  const value = raced.value as T & ActionNavigation & Open;
  const waitMs = page === "possible" && !value.loaded ? DOWNLOAD_WAIT_MS : 0;
  const download = await downloads.createdSince(since, waitMs, tabId).catch(() => undefined);
  return download ? { ...value, download } as typeof value : value;
}

/**
 * The tab's debugger session for trusted input, or undefined when the tool should act through
 * the DOM instead: the debugger is off (DEBUGGER_OFF), another client holds the tab
 * (DEBUGGER_BUSY), or the page is one hub never attaches to (NOT_A_WEB_PAGE: the DOM path answers
 * for it as before). Any other failure fails the call.
 */
export async function trustedSession(
  tabId: number,
  context: MethodContext,
): Promise<TabSession | undefined> {
  try {
    return await context.sessions.session(tabId);
  } catch (error) {
    if (isFallbackError(error, FALLBACK_CODES)) return undefined;
    throw error;
  }
}

/** The failures of `sessions.session` after which a tool with a DOM path uses it. */
const FALLBACK_CODES = ["DEBUGGER_OFF", "DEBUGGER_BUSY", "NOT_A_WEB_PAGE"] as const;

/**
 * Whether `error` is a hub error with one of `codes`: a failure of `sessions.session` after which
 * a tool acts another way (trustedSession; screenshot_area.ts's capture of the window).
 */
export function isFallbackError<Code extends string>(
  error: unknown,
  codes: readonly Code[],
): error is HubError & { readonly code: Code } {
  return error instanceof HubError && (codes as readonly string[]).includes(error.code);
}
