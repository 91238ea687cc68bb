/**
 * `page.waitFor` (browser_wait_for): checks the condition every WAIT_POLL_MS until it holds or
 * `timeoutMs` has passed, then answers `{ tabId, waitedMs, matched, element? }` or fails with
 * WAIT_TIMEOUT saying what the last check saw. Each check is one call of the kit's `page.waitFor`
 * (extension/src/page/dom_wait_for.ts), which never waits in the page:
 *
 * - `text` / `textGone` check every frame of the tab (wait_for_frames.ts); with `frame`, only that
 *   frame's document;
 * - `ref` / `selector` check their document through domCall (which resolves the ref's document,
 *   or `frame`).
 *
 * A navigation of the tab does not end the wait: the next check reads the new page (an agent
 * often waits for text the next page shows). A ref of the old page is stale there: met for
 * "hidden" / "detached", REF_STALE for "visible". The call still ends at once when the hub ends it
 * (its deadline, a cancel) or the tab closes: each check and each pause runs in `calls.run`.
 */
import { clip, quoteClip } from "../../../../protocol/clip.ts";
import { HubError, hubError } from "../../../../protocol/errors.ts";
import type {
  BrowserInput,
  DomAnswer,
  WaitForResult,
} from "../../../../protocol/browser_methods/mod.ts";
import { WAIT_MAX_MS } from "../../../../protocol/browser_methods/dom_limits.ts";
import type { KitArgs } from "../../page/dom_kit_types.ts";
import type { WaitCheck } from "../../page/dom_wait_for.ts";
import { parseWaitText, WaitTextError } from "../../page/wait_text.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { isDocumentGone } from "../chrome_errors.ts";
import { domCall, withoutUndefined } from "./dom_call.ts";
import { FRAME_ANSWER_MS } from "./frame_scripting.ts";
import { type FrameCheck, frameCheckers, oneCheckAtATime, textRound } from "./wait_for_frames.ts";

const TOOL = "browser_wait_for";

/** How long the worker pauses between two checks, in milliseconds. */
export const WAIT_POLL_MS = 150;

/**
 * The least time a round gives the page to answer, in milliseconds, even when the wait's time is
 * up: the last round's check still needs a moment. A wait ends within timeoutMs plus about this.
 */
export const ROUND_MIN_MS = 500;

/** What one check concluded. */
export interface Round {
  met: boolean;
  /** What it saw, for the timeout message (bounded). */
  seen: string;
  element?: Record<string, unknown>;
  /** The frames that did not answer (text waits), named for the timeout message. */
  silent?: string;
}

export interface PollTiming {
  timeoutMs: number;
  pollMs?: number;
  /** The most time one round gives the page (default FRAME_ANSWER_MS). */
  answerMs?: number;
  now?: () => number;
  /** Waits `ms` between checks; rejects when the call ended (its deadline, a cancel, the tab closed). */
  pause: (ms: number) => Promise<void>;
}

/** A navigation of the tab ended the check or pause it interrupted, not the wait. */
const navigated = (error: unknown) => error instanceof HubError && error.code === "TAB_NAVIGATED";

/**
 * Chromium saying the document a script was sent to went away meanwhile (the tab or frame
 * navigated): the next check looks again.
 */
const documentGone = (error: unknown) =>
  error instanceof HubError && error.code === "EXTENSION_ERROR" && isDocumentGone(error);

/**
 * Runs `round` until it is met or `timeoutMs` has passed (one round at least, and one more at the
 * end of the time), pausing `pollMs` between rounds. Each round is given the time left, at most
 * `answerMs` and at least ROUND_MIN_MS, for the page to answer (`round(ms)`), so the wait ends
 * soon after `timeoutMs` even when the page does not answer. A round or pause that TAB_NAVIGATED
 * interrupted is skipped; any other error ends the wait. Answers the last round and the time.
 */
export async function pollUntil(
  round: (ms: number) => Promise<Round>,
  { timeoutMs, pollMs = WAIT_POLL_MS, answerMs = FRAME_ANSWER_MS, now = Date.now, pause }:
    PollTiming,
): Promise<Round & { waitedMs: number }> {
  const start = now();
  let last: Round = { met: false, seen: "nothing (the page navigated during every check)" };
  for (;;) {
    const left = timeoutMs - (now() - start);
    try {
      last = await round(Math.max(ROUND_MIN_MS, Math.min(answerMs, left)));
    } catch (error) {
      if (!navigated(error)) throw error;
    }
    const waitedMs = Math.max(0, now() - start);
    if (last.met || waitedMs >= timeoutMs) return { ...last, waitedMs };
    await pause(Math.min(pollMs, timeoutMs - waitedMs)).catch((error) => {
      if (!navigated(error)) throw error;
    });
  }
}

/** The checks of one wait: one at a time in each document (oneCheckAtATime, frameCheckers). */
interface Checkers {
  document: ReturnType<typeof oneCheckAtATime<DomAnswer>>;
  frames: ReturnType<typeof frameCheckers>;
}

/**
 * One check of the page through domCall: its answer, or undefined when it takes longer than `ms`
 * (a failure before then is the check's). A check still running from an earlier round is awaited
 * again instead of a new one.
 */
async function checkWithin(
  input: BrowserInput<"page.waitFor">,
  tabId: number,
  context: MethodContext,
  checker: Checkers["document"],
  ms: number,
): Promise<DomAnswer | undefined> {
  const settled = await checker.ask(
    () => domCall("page.waitFor", { ...input, tabId }, context, TOOL),
    ms,
  );
  if (settled && "error" in settled) throw settled.error;
  return settled?.value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** A bad `/regex/` fails before any page is touched. */
function checkPattern(text: string | undefined) {
  if (text === undefined) return;
  try {
    parseWaitText(text);
  } catch (error) {
    if (error instanceof WaitTextError) throw hubError("INVALID_ARGUMENTS", error.message);
    throw error;
  }
}

/** One document's check through domCall (ref, selector, or text with `frame`). */
async function documentRound(
  input: BrowserInput<"page.waitFor">,
  tabId: number,
  context: MethodContext,
  checkers: Checkers,
  ms: number,
): Promise<Round> {
  try {
    const value = await checkWithin(input, tabId, context, checkers.document, ms);
    if (!value) {
      const which = input.frame !== undefined ? "the frame" : "the page";
      return {
        met: false,
        seen: `no answer from ${which} within ${ms} ms (busy running a script?)`,
        silent: which,
      };
    }
    const { met, seen, element } = value as unknown as WaitCheck;
    const described = element as unknown as Record<string, unknown> | undefined;
    return {
      met,
      seen: clip(String(seen ?? ""), 300),
      ...(described ? { element: described } : {}),
    };
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    if (documentGone(error)) return { met: false, seen: "the page was being replaced" };
    const target = input.ref !== undefined && input.text === undefined &&
      input.textGone === undefined;
    if (error.code === "REF_STALE" && target && input.state !== "visible") {
      return { met: true, seen: "its element is gone" };
    }
    // The frame may not be there yet (or was replaced): look again next round.
    if (error.code === "ELEMENT_NOT_FOUND" && input.frame !== undefined) {
      return { met: false, seen: clip(error.message, 300) };
    }
    throw error;
  }
}

/** One round of a text wait over every frame; the top document through domCall when it is mute. */
function tabTextRound(
  input: BrowserInput<"page.waitFor">,
  tabId: number,
  context: MethodContext,
  checkers: Checkers,
  ms: number,
): Promise<Round> {
  const { tabId: _, frame: __, ref: ___, ...rest } = input;
  const args = withoutUndefined(rest) as unknown as KitArgs<"page.waitFor">;
  // The top document gave no answer: ask it through domCall, whose errors say why
  // (PAGE_NOT_SCRIPTABLE on a chrome:// page, for one), in what is left of the round's time.
  const until = Date.now() + ms;
  const topCheck = async (): Promise<FrameCheck | undefined> => {
    const left = Math.max(0, until - Date.now());
    const value = await checkWithin(input, tabId, context, checkers.document, left).catch(
      (error) => {
        if (documentGone(error)) return undefined;
        throw error;
      },
    );
    return value ? { ok: true, value, index: -1 } : undefined;
  };
  return context.calls.run(
    tabId,
    TOOL,
    () =>
      textRound(
        tabId,
        args,
        checkers.frames,
        ms,
        topCheck,
        context,
      ),
  );
}

export const pageWaitFor: BrowserMethod<"page.waitFor"> = async (input, context) => {
  checkPattern(input.text ?? input.textGone);
  const tab = await targetTab({ tabId: input.tabId });
  const tabId = tab.id!;
  const textWait = input.text !== undefined || input.textGone !== undefined;
  const checkers: Checkers = { document: oneCheckAtATime<DomAnswer>(), frames: frameCheckers() };
  const check = textWait && input.frame === undefined ? tabTextRound : documentRound;
  const round = (ms: number) =>
    check(input, tabId, context, checkers, ms).catch((error) => {
      // A check still running would answer for the old page.
      if (navigated(error)) {
        checkers.document.forget();
        checkers.frames.forget();
      }
      throw error;
    });
  const pause = (ms: number) => context.calls.run(tabId, TOOL, (signal) => sleep(ms, signal));
  const last = await pollUntil(round, { timeoutMs: input.timeoutMs, pause });
  if (!last.met) throw timeoutError(input, tabId, last.seen, last.silent);
  const matched = input.text !== undefined
    ? "text"
    : input.textGone !== undefined
    ? "textGone"
    : "state";
  const result: WaitForResult = { tabId, waitedMs: Math.round(last.waitedMs), matched };
  if (last.element && matched === "state") result.element = last.element;
  return result;
};

/** WAIT_TIMEOUT: what was waited for, what the last check saw, and what to try. */
export function timeoutError(
  input: BrowserInput<"page.waitFor">,
  tabId: number,
  seen: string,
  silent?: string,
): HubError {
  const { timeoutMs } = input;
  const longer = `wait longer (timeoutMs, at most ${WAIT_MAX_MS})`;
  const inFrame = input.frame !== undefined ? ` in the frame ${quoteClip(input.frame)}` : "";
  const mute = silent
    ? ` ${silent[0].toUpperCase()}${silent.slice(1)} did not answer in time.`
    : "";
  if (input.text !== undefined) {
    return hubError(
      "WAIT_TIMEOUT",
      `${quoteClip(input.text)} did not show on tab ${tabId}${inFrame || " (any frame)"} ` +
        `within ${timeoutMs} ms. The page showed ${seen}.${mute} Text hidden from people does not ` +
        "count. Check the wording with browser_get_page_text, pass a /regex/i, or " + longer + ".",
    );
  }
  if (input.textGone !== undefined && silent) {
    // No frame that answered showed the text, but one did not answer: it may still show it.
    return hubError(
      "WAIT_TIMEOUT",
      `${quoteClip(input.textGone)} could not be seen gone from tab ${tabId}${inFrame} within ` +
        `${timeoutMs} ms: ${silent} did not answer (busy running a script, or stuck), so the ` +
        "text may still be there; textGone holds only when every shown frame answered without " +
        `it. Check the page with browser_get_page_text, or ${longer}.`,
    );
  }
  if (input.textGone !== undefined) {
    return hubError(
      "WAIT_TIMEOUT",
      `${quoteClip(input.textGone)} was still on tab ${tabId}${inFrame} after ${timeoutMs} ms: ` +
        `${seen}. Check the page with browser_get_page_text, or ${longer}.`,
    );
  }
  const label = input.ref !== undefined
    ? `ref "${input.ref}"`
    : `selector ${quoteClip(input.selector ?? "")}${inFrame}`;
  // The rule of what people see applies to visible / hidden only, not to detached.
  const rule = input.state === "detached" ? "" : "An element hidden from people (display:none, " +
    "opacity:0, aria-hidden, zero size, off-page) is not visible. ";
  return hubError(
    "WAIT_TIMEOUT",
    `The element of ${label} was not ${input.state} on tab ${tabId} within ${timeoutMs} ms ` +
      `(last seen: ${seen}). ${rule}Look with browser_snapshot or browser_query_elements, or ` +
      `${longer}.`,
  );
}
