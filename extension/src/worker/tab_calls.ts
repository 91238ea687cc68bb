/**
 * Runs page work for a call in one tab and makes sure it ends: a tab that closes or navigates
 * away mid-call fails the call at once (TAB_NAVIGATED, TAB_CLOSED) instead of leaving it to the
 * hub's timeout, and a call the hub ended (its deadline, a cancel) or whose link closed stops
 * when its signal aborts (call_ends.ts). The worker runs no clock of its own: the deadline is the
 * hub's.
 */
import { HubError, hubError } from "../../../protocol/errors.ts";

export interface TabCalls {
  /**
   * Runs `work` for `tabId`; rejects with a HubError when the tab goes away first, or when
   * `ended` aborts (with its reason: the call ended elsewhere). The signal `work` gets aborts
   * once `run` is done with the work, so work it gave up on can let go of what it holds.
   */
  run<T>(
    tabId: number,
    what: string,
    work: (signal: AbortSignal) => Promise<T>,
    ended?: AbortSignal,
  ): Promise<T>;
  /** The tab closed: fail its calls. */
  closed(tabId: number): void;
  /** The tab's document was replaced: fail its calls. */
  navigated(tabId: number, url?: string): void;
  /** Calls running in the tab (for tests and the side panel). */
  running(tabId: number): number;
}

export function createTabCalls(): TabCalls {
  const waiting = new Map<number, Set<(error: HubError) => void>>();

  function failAll(tabId: number, error: HubError) {
    const set = waiting.get(tabId);
    if (!set) return;
    waiting.delete(tabId);
    for (const fail of set) fail(error);
  }

  return {
    async run(tabId, what, work, ended) {
      const done = new AbortController();
      let fail!: (error: HubError) => void;
      const gone = new Promise<never>((_, reject) => (fail = reject));
      let set = waiting.get(tabId);
      if (!set) waiting.set(tabId, set = new Set());
      set.add(fail);
      const onEnded = () => fail(endedError(ended!.reason, what));
      ended?.addEventListener("abort", onEnded, { once: true });
      if (ended?.aborted) onEnded();
      try {
        return await Promise.race([work(done.signal), gone]);
      } catch (error) {
        if (error instanceof HubError) throw error;
        throw await explain(tabId, what, error);
      } finally {
        done.abort();
        ended?.removeEventListener("abort", onEnded);
        waiting.get(tabId)?.delete(fail);
        if (waiting.get(tabId)?.size === 0) waiting.delete(tabId);
      }
    },
    closed(tabId) {
      failAll(
        tabId,
        hubError("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`),
      );
    },
    navigated(tabId, url) {
      const where = url ? ` (to ${url})` : "";
      failAll(
        tabId,
        hubError(
          "TAB_NAVIGATED",
          `Tab ${tabId} navigated away${where} while the call ran, so its answer was lost. ` +
            "Try again once the page has loaded.",
        ),
      );
    },
    running: (tabId) => waiting.get(tabId)?.size ?? 0,
  };
}

/** `calls` for one call: each `run` stops when `ended` aborts (the hub ended the call). */
export function callScoped(calls: TabCalls, ended: AbortSignal): TabCalls {
  return { ...calls, run: (tabId, what, work) => calls.run(tabId, what, work, ended) };
}

/** Why a call ended elsewhere, as its error: the hub's own error when it sent one. */
function endedError(reason: unknown, what: string): HubError {
  if (reason instanceof HubError) return reason;
  return hubError("CANCELLED", `${what} was ended before it answered.`);
}

/** What Chromium says when a page is closed to extensions (chrome://, about:blank, Web Store). */
const NOT_SCRIPTABLE =
  /Cannot access (contents of url|a chrome|a chrome-extension)|cannot be scripted|Missing host permission/i;

/** A failed `chrome.scripting` / `chrome.tabs` call as the error the agent should see. */
async function explain(tabId: number, what: string, error: unknown): Promise<HubError> {
  const message = (error as Error)?.message ?? String(error);
  const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
  if (!exists) {
    return hubError("TAB_CLOSED", `Tab ${tabId} was closed while ${what} ran.`);
  }
  if (NOT_SCRIPTABLE.test(message)) {
    return hubError(
      "PAGE_NOT_SCRIPTABLE",
      `Chromium does not let extensions into the page in tab ${tabId} (${message}). ` +
        "Pages such as about:blank, chrome:// and the Web Store are closed to them: use a tab " +
        "with an http(s) page.",
    );
  }
  return hubError(
    "EXTENSION_ERROR",
    `The browser could not run ${what} in tab ${tabId}: ${message}`,
  );
}
