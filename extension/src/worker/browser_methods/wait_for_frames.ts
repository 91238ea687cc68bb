/**
 * One round of browser_wait_for's `text` / `textGone` over every frame of a tab: the kit's
 * `page.waitFor` check in each frame's document at once (same-origin and cross-origin), each
 * bounded by FRAME_ANSWER_MS (inFrames), the kit installed where it is missing (callWithKit).
 * A frame whose `<iframe>` is hidden from people (or sits inside one) does not count, as in
 * browser_get_page_text (pickFrames, frame_tree.ts): its text is not shown. `text` holds when any shown frame
 * shows it; `textGone` when the top document answered and no shown frame that answered shows it.
 */
import {
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type KitArgs,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import type { WaitCheck } from "../../page/dom_wait_for.ts";
import { callWithKit, firstResult } from "./browser_method.ts";
import { kitFailure } from "./dom_call.ts";
import { inFrames } from "./frame_scripting.ts";
import { pickFrames } from "./frame_tree.ts";
import { clip } from "../../../../protocol/clip.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

/** A frame's check, with its place among its parent's frames and its hidden child frames. */
export type FrameCheck = KitOutcome & { index: number; hidden?: number[] };

/** What a round of checks concluded, for the poll loop. */
export interface TextRound {
  met: boolean;
  /** What the round saw, at most ~300 characters: an excerpt, and the frame's URL when not top. */
  seen: string;
  /** The top document gave no answer (it cannot be scripted, or it did not answer in time). */
  topMissing?: boolean;
}

/**
 * Runs in each frame's isolated world; self-contained (serialized by chrome.scripting): the kit's
 * `page.waitFor` check, the frame's index in its parent's `frames` (a cross-origin child may
 * compare `parent[i]` with its own window) and its hidden child frames.
 */
async function frameWaitCheck(name: string, version: string, args: unknown): Promise<FrameCheck> {
  const kit = Reflect.get(globalThis, name) as
    | {
      version?: string;
      run?: (op: string, args: unknown) => Promise<KitOutcome>;
      hiddenFrames?: () => number[];
    }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { ok: false, error: { code: "KIT_MISSING", message: "" }, index: -1 };
  }
  let index = -1;
  const here = globalThis as unknown as Window;
  try {
    if (here.parent !== here) {
      for (let i = 0; i < here.parent.length; i++) {
        if (here.parent[i] === here) {
          index = i;
          break;
        }
      }
    }
  } catch { /* no place: the worker cannot judge whether it is hidden */ }
  const outcome = await kit.run("page.waitFor", args);
  const hidden = typeof kit.hiddenFrames === "function" ? kit.hiddenFrames() : undefined;
  return { ...outcome, index, ...(hidden ? { hidden } : {}) };
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

/** Each frame's check (absent: the frame could not be scripted, or answered late). */
export async function checkFrames(
  tabId: number,
  frameIds: number[],
  args: KitArgs<"page.waitFor">,
): Promise<Map<number, FrameCheck>> {
  return await inFrames(tabId, frameIds, async (target) => {
    const result = await callWithKit(target, async () =>
      firstResult<FrameCheck>(
        await chrome.scripting.executeScript({
          target,
          func: frameWaitCheck,
          args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, args],
        }),
      ));
    return [{ frameId: target.frameIds![0], documentId: "", result }];
  });
}

/**
 * One round over the tab's frames (see the file's comment). When the top document gave no answer,
 * `topCheck` asks it another way (its failure, such as PAGE_NOT_SCRIPTABLE, is the call's).
 */
export async function textRound(
  tabId: number,
  args: KitArgs<"page.waitFor">,
  topCheck?: () => Promise<FrameCheck | undefined>,
): Promise<TextRound> {
  const frames = await framesOf(tabId);
  const checks = await checkFrames(tabId, frames.map((f) => f.frameId), args);
  if (!checks.get(0)?.ok && topCheck) {
    const top = await topCheck();
    if (top) checks.set(0, { ...top, hidden: checks.get(0)?.hidden });
  }
  return judgeFrames(frames, checks, args.text !== undefined);
}

/**
 * What the checks of one round say: `appear` (text) holds when any shown frame's check is met;
 * otherwise (textGone) when the top document answered and every shown frame's answer is met.
 * A failure the top document's kit reported (not a missing kit) is the call's error.
 */
export function judgeFrames(
  frames: Frame[],
  checks: Map<number, FrameCheck>,
  appear: boolean,
): TextRound {
  const top = checks.get(0);
  if (top && !top.ok && top.error.code !== "KIT_MISSING") throw kitFailure(top.error);
  const places = new Map([...checks].map(([id, c]) => [id, { index: c.index, hidden: c.hidden }]));
  const shown = [0, ...pickFrames(frames, places).shown.map((s) => s.frame.frameId)];
  const answered = shown.flatMap((id) => {
    const check = checks.get(id);
    if (!check?.ok) return [];
    const frame = frames.find((f) => f.frameId === id);
    return [{ id, url: frame?.url ?? "", value: check.value as unknown as WaitCheck }];
  });
  const where = (a: (typeof answered)[number]) =>
    a.id === 0 ? "" : ` (in the frame ${clip(a.url, 100)})`;
  const topMissing = !answered.some((a) => a.id === 0);
  if (appear) {
    if (answered.some((a) => a.value.met)) return { met: true, seen: "" };
    const best = answered.find((a) => a.value.near) ?? answered[0];
    const seen = best ? `"${best.value.seen}"${where(best)}` : "nothing (no frame answered)";
    return { met: false, seen, ...(topMissing ? { topMissing } : {}) };
  }
  const showing = answered.find((a) => !a.value.met);
  if (!showing && !topMissing) return { met: true, seen: "" };
  const seen = showing ? `"${showing.value.seen}"${where(showing)}` : "nothing (no frame answered)";
  return { met: false, seen, ...(topMissing ? { topMissing } : {}) };
}
