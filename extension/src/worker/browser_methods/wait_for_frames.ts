/**
 * One round of browser_wait_for's `text` / `textGone` over every frame of a tab: the kit's
 * `page.waitFor` check in each frame's document at once (same-origin and cross-origin), each
 * awaited at most the round's time (FRAME_ANSWER_MS, less near the wait's end), the kit installed
 * where it is missing (callWithKit). A document gets one check at a time: one still running from
 * an earlier round is awaited again, not sent again (oneCheckAtATime). Only a frame its parent
 * shows counts, as in browser_get_page_text (pickFrames, frame_tree.ts): one whose frame element is
 * hidden from people (or sits inside one) does not, its text is not shown. `text` holds when any shown frame shows it; `textGone`
 * when every shown frame answered and none shows it (a frame that did not answer may still show
 * it; one that cannot be scripted at all is left out). A frame whose site is `off`, or `ask` and not
 * allowed for this call, is not checked, nor the frames inside it (frame_sites.ts): its text counts
 * as not shown.
 */
import {
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type FramesShown,
  type KitArgs,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import type { WaitCheck } from "../../page/dom_wait_for.ts";
import { callWithKit, firstResult } from "./browser_method.ts";
import { kitFailure } from "./dom_call.ts";
import { pickFrames } from "./frame_tree.ts";
import { type FrameSiteContext, splitByFrameSites } from "./frame_sites.ts";
import { clip } from "../../../../protocol/clip.ts";
import { withTimeout } from "../../../../protocol/with_timeout.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

/** A frame's check, with its place among its parent's frames and the child frames it shows. */
export type FrameCheck = KitOutcome & { index: number; shown?: FramesShown };

/** What a round of checks concluded, for the poll loop. */
export interface TextRound {
  met: boolean;
  /** What the round saw, at most ~300 characters: an excerpt, and the frame's URL when not top. */
  seen: string;
  /** The top document gave no answer (it cannot be scripted, or it did not answer in time). */
  topMissing?: boolean;
  /** The shown frames that did not answer in time, named (`the frame <URL>`, `the page`). */
  silent?: string;
}

/**
 * Runs in each frame's isolated world; self-contained (serialized by chrome.scripting): the kit's
 * `page.waitFor` check, the frame's index in its parent's `frames` (the kit's ownFrameIndex) and
 * the child frames it shows (the kit's framesShown).
 */
async function frameWaitCheck(name: string, version: string, args: unknown): Promise<FrameCheck> {
  const kit = Reflect.get(globalThis, name) as
    | {
      version?: string;
      run?: (op: string, args: unknown) => Promise<KitOutcome>;
      framesShown?: () => FramesShown;
      ownFrameIndex?: () => number;
    }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { ok: false, error: { code: "KIT_MISSING", message: "" }, index: -1 };
  }
  // -1 (no place): the worker cannot judge whether it is hidden.
  const index = typeof kit.ownFrameIndex === "function" ? kit.ownFrameIndex() : -1;
  const outcome = await kit.run("page.waitFor", args);
  const shown = typeof kit.framesShown === "function" ? kit.framesShown() : undefined;
  return { ...outcome, index, ...(shown ? { shown } : {}) };
}

/**
 * The most frames (the top document included) one round checks. More than MAX_FRAMES: which
 * frames are shown (pickFrames keeps at most MAX_FRAMES of them) is known only from the checks'
 * answers, so a round checks frames before it can tell which count.
 */
export const WAIT_MAX_FRAMES = 100;

/**
 * The tab's frames (at most WAIT_MAX_FRAMES, the top document first), or only the top document
 * when they cannot be listed.
 */
async function framesOf(tabId: number): Promise<Frame[]> {
  const frames = await chrome.webNavigation?.getAllFrames?.({ tabId }).catch(() => null);
  if (!frames || frames.length === 0) return [{ frameId: 0, parentFrameId: -1, url: "" } as Frame];
  const sorted = [...frames].sort((a, b) => a.frameId - b.frameId);
  return sorted.slice(0, WAIT_MAX_FRAMES);
}

/** A run that settled: its value or its error. */
export type Settled<T> = { value: T } | { error: unknown };

/**
 * One check at a time in a document: `ask(start, ms)` starts a check only when the previous one
 * answered; a check that has not answered within `ms` is kept, and the next `ask` waits for that
 * same check again instead of sending another (checks sent to a busy page would queue up in it).
 * Answers the settled check, or undefined when it did not answer within `ms`.
 */
export function oneCheckAtATime<T>() {
  let pending: Promise<Settled<T>> | undefined;
  return {
    async ask(start: () => Promise<T>, ms: number): Promise<Settled<T> | undefined> {
      pending ??= start().then((value) => ({ value }), (error) => ({ error }));
      const settled = await withTimeout(pending, ms, undefined);
      if (settled) pending = undefined;
      return settled;
    },
    /** Drops a check still running (the tab navigated: its answer would be the old page's). */
    forget() {
      pending = undefined;
    },
  };
}

/** A round's checks: each frame's answer, and the frames that gave none in time. */
export interface FrameChecks {
  /** Absent: the frame could not be scripted, or did not answer in time. */
  checks: Map<number, FrameCheck>;
  /** The frames whose check did not answer in time (or was still running from a round before). */
  late: Set<number>;
}

/**
 * The text checks of one browser_wait_for call: one check at a time per frame document (see
 * oneCheckAtATime), each awaited at most the round's `ms`.
 */
export function frameCheckers() {
  const byDocument = new Map<string, ReturnType<typeof oneCheckAtATime<FrameCheck>>>();
  return {
    async check(
      tabId: number,
      frames: Frame[],
      args: KitArgs<"page.waitFor">,
      ms: number,
    ): Promise<FrameChecks> {
      const result: FrameChecks = { checks: new Map(), late: new Set() };
      await Promise.all(frames.map(async (frame) => {
        const key = frame.documentId ?? `frame ${frame.frameId}`;
        const checker = byDocument.get(key) ?? oneCheckAtATime<FrameCheck>();
        byDocument.set(key, checker);
        const target = { tabId, frameIds: [frame.frameId] };
        const settled = await checker.ask(() => checkFrame(target, args), ms);
        if (!settled) result.late.add(frame.frameId);
        else if ("value" in settled && settled.value) {
          result.checks.set(frame.frameId, settled.value);
        }
        // An error: the frame cannot be scripted (an error page, a frame being replaced).
      }));
      return result;
    },
    forget() {
      byDocument.clear();
    },
  };
}

/** One frame's check, the kit installed first where it is missing. */
async function checkFrame(
  target: chrome.scripting.InjectionTarget,
  args: KitArgs<"page.waitFor">,
): Promise<FrameCheck> {
  return await callWithKit(target, async () =>
    firstResult<FrameCheck>(
      await chrome.scripting.executeScript({
        target,
        func: frameWaitCheck,
        args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, args],
      }),
    ));
}

/**
 * One round over the tab's frames (see the file's comment), each frame's check awaited at most
 * `ms`. When the top document answered nothing but was not late (it cannot be scripted, say),
 * `topCheck` asks it another way (its failure, such as PAGE_NOT_SCRIPTABLE, is the call's).
 * Frames kept out by their site (`sites`: frame_sites.ts) and the frames inside them are not
 * checked; without `sites`, every frame is.
 */
export async function textRound(
  tabId: number,
  args: KitArgs<"page.waitFor">,
  checkers: ReturnType<typeof frameCheckers>,
  ms: number,
  topCheck?: () => Promise<FrameCheck | undefined>,
  sites?: FrameSiteContext,
): Promise<TextRound> {
  const listed = await framesOf(tabId);
  const split = sites
    ? await splitByFrameSites(tabId, listed, sites)
    : { frames: listed, blocked: new Map() };
  const frames = split.frames.filter((f) => !split.blocked.has(f.frameId));
  const { checks, late } = await checkers.check(tabId, frames, args, ms);
  if (!checks.get(0)?.ok && !late.has(0) && topCheck) {
    const top = await topCheck();
    if (top) checks.set(0, { ...top, shown: checks.get(0)?.shown });
  }
  return judgeFrames(frames, checks, args.text !== undefined, late);
}

/** How a frame that did not answer is named: its URL, clipped (`the page`: the top document). */
function silentFrames(frames: Frame[], ids: number[]): string | undefined {
  if (ids.length === 0) return undefined;
  const first = ids[0] === 0
    ? "the page"
    : `the frame ${clip(frames.find((f) => f.frameId === ids[0])?.url || "(no URL)", 100)}`;
  return ids.length > 1 ? `${first} (and ${ids.length - 1} more)` : first;
}

/**
 * What the checks of one round say. `appear` (text) holds when any shown frame's check is met.
 * Otherwise (textGone) it holds only when every shown frame answered and none shows the text: a
 * frame that did not answer in time (`late`) may still show it, so the round is not met and says
 * which frame was silent. A frame that cannot be scripted at all is left out, as in page text. A
 * failure the top document's kit reported (not a missing kit) is the call's error.
 */
export function judgeFrames(
  frames: Frame[],
  checks: Map<number, FrameCheck>,
  appear: boolean,
  late: Set<number> = new Set(),
): TextRound {
  const top = checks.get(0);
  if (top && !top.ok && top.error.code !== "KIT_MISSING") throw kitFailure(top.error);
  // A check carries its frame's place (index, shown): pickFrames reads it as is.
  const shown = [0, ...pickFrames(frames, checks).shown.map((s) => s.frame.frameId)];
  const answered = shown.flatMap((id) => {
    const check = checks.get(id);
    if (!check?.ok) return [];
    const frame = frames.find((f) => f.frameId === id);
    return [{ id, url: frame?.url ?? "", value: check.value as unknown as WaitCheck }];
  });
  const where = (a: (typeof answered)[number]) =>
    a.id === 0 ? "" : ` (in the frame ${clip(a.url, 100)})`;
  const topMissing = !answered.some((a) => a.id === 0);
  const silent = silentFrames(frames, shown.filter((id) => late.has(id)));
  const extra = { ...(topMissing ? { topMissing } : {}), ...(silent ? { silent } : {}) };
  if (appear) {
    if (answered.some((a) => a.value.met)) return { met: true, seen: "" };
    const best = answered.find((a) => a.value.near) ?? answered[0];
    const seen = best ? `"${best.value.seen}"${where(best)}` : "nothing (no frame answered)";
    return { met: false, seen, ...extra };
  }
  const showing = answered.find((a) => !a.value.met);
  if (showing) {
    const seen = `"${showing.value.seen}"${where(showing)}`;
    return { met: false, seen, ...(topMissing ? { topMissing } : {}) };
  }
  if (!topMissing && !silent) return { met: true, seen: "" };
  const seen = silent ? `no answer from ${silent}` : "nothing (no frame answered)";
  return { met: false, seen, ...extra };
}
