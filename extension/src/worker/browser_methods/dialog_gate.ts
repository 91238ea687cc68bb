/**
 * The dialog gate every tab method passes (mod.ts): while an alert, confirm, prompt or
 * beforeunload dialog is open in the tab, the page is frozen and anything that touches it would
 * hang, so the call fails at once with DIALOG_OPEN naming the dialog. A dialog that opens while
 * the call runs fails it too, unless the method answers with it itself (an action: `dialog` in its
 * answer, through `Dialogs.race`).
 *
 * Exempt: browser_handle_dialog (it answers the dialog), the methods that do not act on one tab
 * (list tabs and windows, open a tab, the extension's own methods), and those that read what the
 * worker recorded without touching the page (browser_list_downloads, browser_network_requests).
 * Plugin tools pass the same gate once their tab is chosen (`withTabDialogGate`,
 * plugin_dispatch.ts). Costs nothing while no dialog is open.
 */
import type { BrowserMethodName } from "../../../../protocol/browser_methods/mod.ts";
import { type DialogInfo, dialogOpenError, type Dialogs, type DialogWatch } from "../dialogs.ts";
import { targetTab } from "./browser_method.ts";

const EXEMPT: ReadonlySet<string> = new Set([
  "tabs.handleDialog",
  "tabs.list",
  "windows.list",
  "tabs.open",
  // They read the worker's own records (chrome.downloads, the webRequest log), never the page.
  "downloads.list",
  "network.requests",
]);

/**
 * How long a method that runs into a dialog has to answer with it itself (`race` answers within
 * the same task) before the gate fails it with DIALOG_OPEN.
 */
const OWN_ANSWER_MS = 50;

/** Whether the gate applies to `method`. */
export function gated(method: BrowserMethodName): boolean {
  return !EXEMPT.has(method) && !method.startsWith("extension.");
}

/** Runs `work` (the method's handler) behind the dialog gate of the tab `input` names. */
export async function withDialogGate<T>(
  method: BrowserMethodName,
  input: unknown,
  dialogs: DialogWatch,
  work: () => Promise<T>,
): Promise<T> {
  if (!gated(method)) return await work();
  const given = (input as { tabId?: unknown })?.tabId;
  let target: Promise<number | undefined> | undefined;
  /** The call's tab, looked up only when a dialog makes it matter. */
  const tabOf = () =>
    target ??= typeof given === "number"
      ? Promise.resolve(given)
      : targetTab({}).then((tab) => tab.id, () => undefined);
  return await gate(dialogs, tabOf, work);
}

/**
 * Runs `work` (a call known to run in `tabId`: a plugin tool once its tab is chosen) behind the
 * tab's dialog gate: DIALOG_OPEN at once when one is open, or as soon as one opens while it runs.
 */
export async function withTabDialogGate<T>(
  dialogs: DialogWatch | undefined,
  tabId: number,
  work: () => Promise<T>,
): Promise<T> {
  if (!dialogs) return await work();
  const known = Promise.resolve(tabId);
  return await gate(dialogs, () => known, work);
}

async function gate<T>(
  dialogs: DialogWatch,
  tabOf: () => Promise<number | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  if (dialogs.any()) {
    const tabId = await tabOf();
    if (tabId !== undefined) dialogs.assertNone(tabId);
  }
  return await new Promise<T>((resolve, reject) => {
    let done = false;
    const stop = dialogs.listen((id, dialog) => {
      if (!dialog) return;
      void tabOf().then((tabId) => tabId === id && failSoon(id));
    });
    function finish(settle: () => void) {
      if (done) return;
      done = true;
      stop();
      settle();
    }
    /** Fails the call with the tab's dialog unless the method answers first. */
    function failSoon(tabId: number) {
      setTimeout(() => {
        const dialog = dialogs.open(tabId);
        if (dialog) finish(() => reject(dialogOpenError(tabId, dialog)));
      }, OWN_ANSWER_MS);
    }
    work().then(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    );
  });
}

/**
 * `work`'s value, or the tab as it is now with the dialog that opened while it ran (a page's
 * beforeunload holding a navigation), answered as soon as it opens.
 */
export async function orDialog(
  dialogs: Pick<Dialogs, "race">,
  tabId: number,
  work: Promise<boolean>,
): Promise<{ loaded: boolean; dialog?: DialogInfo }> {
  const raced = await dialogs.race(tabId, work);
  return "dialog" in raced ? { loaded: false, dialog: raced.dialog } : { loaded: raced.value };
}
