/**
 * The JavaScript dialogs open in each tab (`alert`, `confirm`, `prompt`, `beforeunload`), as the
 * debugger reports them. A dialog freezes its page: the script that opened it, and every
 * `chrome.scripting` call into the page, wait until someone answers it. So the tools must know of
 * it instead of hanging: an action that opened one answers with it (`race`), every other tab tool
 * fails at once with DIALOG_OPEN (`assertNone`, dialog_gate.ts), and browser_handle_dialog
 * answers it (`handle`) through `Page.handleJavaScriptDialog`.
 *
 * Every debugger session (the tab's page and each out-of-process frame) gets `Page.enable`, so
 * Chromium reports `Page.javascriptDialogOpening` / `Page.javascriptDialogClosed` in it. While a
 * dialog is open the tab's session is held (no idle detach), since detaching would lose it.
 *
 * Only dialogs that open while hub is attached to the tab are seen. Measured in Chromium 156: a
 * session that attaches while a dialog is open is not told of it (its `Page.enable` waits for the
 * frozen page, and `Page.handleJavaScriptDialog` there finds no dialog), so attaching later to look
 * would only show Chromium's bar; such a dialog is left to the person at the browser.
 */
import type { DialogInfo, DialogType } from "../../../protocol/browser_methods/dialogs.ts";
import { clip } from "../../../protocol/clip.ts";
import { hubError } from "../../../protocol/errors.ts";
import type { CdpEvent, DebuggerSessions } from "./debugger_sessions.ts";
import { offError } from "./debugger_attach.ts";

export type { DialogInfo };

export interface Dialogs {
  open(tabId: number): DialogInfo | null;
  /** Throws DIALOG_OPEN (details: { dialog }) when one is open in the tab. */
  assertNone(tabId: number): void;
  /** The action's value, or the dialog it opened (as soon as Page.javascriptDialogOpening arrives). */
  race<T>(tabId: number, action: Promise<T>): Promise<{ value: T } | { dialog: DialogInfo }>;
  handle(
    tabId: number,
    accept: boolean,
    promptText?: string,
  ): Promise<{ handled: DialogInfo; dialog: DialogInfo | null }>;
}

/** The parts of the dialogs the gate uses beyond the interface (dialog_gate.ts). */
export interface DialogWatch extends Dialogs {
  /** Whether any tab has a dialog open now (the gate's free fast path). */
  any(): boolean;
  /** Calls `listener` when a dialog opens (`dialog`) or closes (null) in a tab. */
  listen(listener: (tabId: number, dialog: DialogInfo | null) => void): () => void;
}

export interface DialogOptions {
  /** How long `handle` waits for the next dialog (a confirm followed by an alert). */
  nextMs?: number;
}

/** The longest dialog message kept, in characters (a page can open a dialog with megabytes). */
export const DIALOG_MESSAGE_MAX_CHARS = 4_000;
/** `handle` waits this long for the next dialog. */
export const NEXT_DIALOG_MS = 500;
/** `Page.enable` in a new session: short, since a frozen page may never answer it. */
const ENABLE_MS = 2_000;

const TYPES: ReadonlySet<string> = new Set(["alert", "confirm", "prompt", "beforeunload"]);

/** One open dialog and where it was reported. */
interface OpenDialog {
  info: DialogInfo;
  /** The session that reported it (undefined: the tab's page); it answers it. */
  sessionId?: string;
  /** Lets the tab's session detach again. */
  release: () => void;
}

/** The dialog of a `Page.javascriptDialogOpening` event, its message bounded. */
export function dialogOf(params: Record<string, unknown>): DialogInfo {
  const raw = String(params.type ?? "");
  const type = (TYPES.has(raw) ? raw : "alert") as DialogType;
  const info: DialogInfo = {
    type,
    message: clip(String(params.message ?? ""), DIALOG_MESSAGE_MAX_CHARS),
  };
  if (type === "prompt") {
    info.defaultPrompt = clip(String(params.defaultPrompt ?? ""), DIALOG_MESSAGE_MAX_CHARS);
  }
  return info;
}

/** The most characters of a dialog's message quoted in DIALOG_OPEN's text. */
export const DIALOG_QUOTE_CHARS = 200;

/**
 * The page's dialog message as DIALOG_OPEN's text quotes it: line breaks folded to spaces, cut at
 * DIALOG_QUOTE_CHARS, then JSON-quoted after "page text:", so the page cannot close the quote and
 * go on in hub's voice (the structured `details.dialog` keeps the message as it was).
 */
export function quotedPageText(message: string): string {
  const folded = message.replace(/[\r\n\u0085\u2028\u2029]+/g, " ");
  return `page text: ${JSON.stringify(clip(folded, DIALOG_QUOTE_CHARS))}`;
}

/** The DIALOG_OPEN error for a dialog open in `tabId`. */
export function dialogOpenError(tabId: number, dialog: DialogInfo) {
  const answer = dialog.type === "prompt"
    ? "accept: true and promptText to answer it, accept: false to cancel"
    : dialog.type === "alert"
    ? "accept: true"
    : dialog.type === "beforeunload"
    ? "accept: true to leave the page, accept: false to stay"
    : "accept: true for OK, accept: false for Cancel";
  return hubError(
    "DIALOG_OPEN",
    `Tab ${tabId} has ${article(dialog.type)} ${dialog.type} dialog open ` +
      `(${quotedPageText(dialog.message)}), and the page is frozen until it is answered. Call ` +
      `browser_handle_dialog with tabId ${tabId} and ${answer}; then try again.`,
    { tabId, dialog },
  );
}

function article(type: DialogType): string {
  return type === "alert" ? "an" : "a";
}

export function createDialogs(
  sessions: DebuggerSessions,
  options: DialogOptions = {},
): DialogWatch {
  const nextMs = options.nextMs ?? NEXT_DIALOG_MS;
  const dialogs = new Map<number, OpenDialog>();
  const listeners = new Set<(tabId: number, dialog: DialogInfo | null) => void>();

  function tell(tabId: number, dialog: DialogInfo | null) {
    for (const listener of [...listeners]) {
      try {
        listener(tabId, dialog);
      } catch (error) {
        console.warn("A dialog listener failed", error);
      }
    }
  }

  function opened(event: CdpEvent) {
    const info = dialogOf(event.params);
    const known = dialogs.get(event.tabId);
    if (known) {
      // The same dialog reported by a second session (a frame's and the page's): it keeps its hold
      // and the session that reported it first answers it.
      known.info = info;
      return;
    }
    dialogs.set(event.tabId, {
      info,
      sessionId: event.sessionId,
      release: sessions.hold(event.tabId),
    });
    tell(event.tabId, info);
  }

  function closed(tabId: number) {
    const known = dialogs.get(tabId);
    if (!known) return;
    dialogs.delete(tabId);
    known.release();
    tell(tabId, null);
  }

  sessions.onSession(async (session, sessionId) => {
    await session.send("Page.enable", {}, { sessionId, timeoutMs: ENABLE_MS });
  });
  sessions.onEvent((event) => {
    if (event.method === "Page.javascriptDialogOpening") opened(event);
    else if (event.method === "Page.javascriptDialogClosed") closed(event.tabId);
  });
  // Detached (idle, closed, Cancel on the bar, debugger off): what it reported is no longer known.
  sessions.onDetach((tabId) => closed(tabId));

  const open = (tabId: number) => dialogs.get(tabId)?.info ?? null;

  /** Resolves with the first dialog that opens in `tabId` within `ms`, else null. */
  function nextDialog(tabId: number, ms: number): Promise<DialogInfo | null> {
    const now = open(tabId);
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const stop = watch.listen((id, dialog) => {
        if (id !== tabId || !dialog) return;
        finish(dialog);
      });
      const timer = setTimeout(() => finish(null), ms);
      function finish(dialog: DialogInfo | null) {
        clearTimeout(timer);
        stop();
        resolve(dialog);
      }
    });
  }

  const watch: DialogWatch = {
    open,
    any: () => dialogs.size > 0,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    assertNone(tabId) {
      const dialog = open(tabId);
      if (dialog) throw dialogOpenError(tabId, dialog);
    },
    race<T>(tabId: number, action: Promise<T>) {
      return new Promise<{ value: T } | { dialog: DialogInfo }>((resolve, reject) => {
        // One opened since the tab's gate passed (a page timer): the action cannot go on either.
        const already = open(tabId);
        if (already) {
          action.catch(() => {});
          return resolve({ dialog: already });
        }
        let done = false;
        const stop = watch.listen((id, dialog) => {
          if (id === tabId && dialog) finish(() => resolve({ dialog }));
        });
        function finish(settle: () => void) {
          if (done) return;
          done = true;
          stop();
          settle();
        }
        action.then(
          (value) => finish(() => resolve({ value })),
          (error) => finish(() => reject(error)),
        );
      });
    },
    async handle(tabId, accept, promptText) {
      const known = dialogs.get(tabId);
      // With the setting off hub sees no dialog: say how to turn it on (DEBUGGER_OFF).
      if (!known && sessions.mode() === "off") throw offError();
      if (!known) {
        throw hubError(
          "NO_DIALOG",
          `Tab ${tabId} has no alert, confirm, prompt or beforeunload dialog open that hub can ` +
            "see. hub sees the dialogs that open while its debugger is attached to the tab (an " +
            "action with trusted input attaches it); one that opened before, or while the " +
            "debugger was off, only the person at the browser can answer.",
          { tabId },
        );
      }
      const session = await sessions.session(tabId);
      const handled = known.info;
      const params: Record<string, unknown> = { accept };
      if (handled.type === "prompt" && accept) {
        // Without promptText Chromium would answer an empty string, not the prompt's default.
        params.promptText = promptText ?? handled.defaultPrompt ?? "";
      }
      try {
        await session.send("Page.handleJavaScriptDialog", params, { sessionId: known.sessionId });
      } catch (error) {
        if (known.sessionId === undefined) throw noLongerOpen(tabId, error);
        // The frame's session may not own it: the page's session answers every dialog it saw.
        await session.send("Page.handleJavaScriptDialog", params).catch((again) => {
          throw noLongerOpen(tabId, again);
        });
      }
      // Chromium reports the close before answering; if it did not, the dialog is gone anyway.
      if (dialogs.get(tabId) === known) closed(tabId);
      const next = await nextDialog(tabId, nextMs);
      return { handled: { type: handled.type, message: handled.message }, dialog: next };
    },
  };
  return watch;
}

/** The dialog closed before hub answered it (the person at the browser did, or the page left). */
function noLongerOpen(tabId: number, error: unknown) {
  return hubError(
    "NO_DIALOG",
    `The dialog in tab ${tabId} was no longer open when hub answered it ` +
      `(${clip(String((error as Error)?.message ?? error), 200)}). Someone may have answered it ` +
      "at the browser.",
    { tabId },
  );
}
