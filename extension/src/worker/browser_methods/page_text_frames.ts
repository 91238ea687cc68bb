/**
 * browser_get_page_text without a selector, on a tab with frames: the top document's text first,
 * then each frame's text (same-origin and cross-origin, nested) under a line naming it:
 *
 *     --- frame 1: http://localhost:8000/child
 *     --- frame 1.1: http://localhost:8000/grandchild
 *
 * in document order (a frame's number is its place among its parent's shown frames; nested frames
 * follow their parent's text). A frame is read only when its parent shows its frame element
 * (`iframe`, `frame`, `object`, `embed`; pickFrames, frame_tree.ts): one hidden from people is left
 * out, with the frames inside it. A frame whose document cannot be scripted gets its line and
 * `(its text cannot be read)`. At most MAX_FRAMES (frame_tree.ts) frames are read; the whole is capped
 * by `maxLength` like one document's text. Frames are read at once, one `executeScript` each; a
 * frame that does not answer within FRAME_ANSWER_MS (frame_scripting.ts) reads as one that cannot
 * be scripted. A frame whose site is `off`, or `ask` and not allowed for this call (frame_sites.ts),
 * is neither injected nor read, nor are the frames inside it: its line ends in
 * `[blocked: site not allowed]` or `[not read: site not allowed yet]` and no text follows
 * (blocked_frames.ts). With `includeHidden`, every frame is read, hidden ones too.
 */
import type { BrowserInput, DomAnswer } from "../../../../protocol/browser_methods/mod.ts";
import { type Capped, MAX_CHARS, truncationMarker } from "../../../../protocol/text_cap.ts";
import { HEADER_URL_CHARS } from "../../../../protocol/browser_methods/dom_limits.ts";
import {
  DOM_KIT_FILE,
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type KitOutcome,
  MORE_HINT,
} from "../../page/dom_kit_types.ts";
import { type MethodContext, targetTab } from "./browser_method.ts";
import { type KeptOut, placeBlocked } from "./blocked_frames.ts";
import { splitByFrameSites } from "./frame_sites.ts";
import { kitFailure } from "./dom_call.ts";
import { inFrames } from "./frame_scripting.ts";
import { childrenByParent, type FramePlace, MAX_FRAMES, pickFrames } from "./frame_tree.ts";
import { clip } from "../../../../protocol/clip.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

/** Where a frame sits (FramePlace); `kit` says whether the DOM kit was there to judge it. */
interface KitFramePlace extends FramePlace {
  kit?: boolean;
}

/**
 * What compose knows of one frame: its place, and the kit's outcome of reading its text with
 * `maxLength` `read` (no outcome: it was not read, or could not be).
 */
interface FrameAnswer extends KitFramePlace {
  outcome?: KitOutcome;
  read?: number;
}

/**
 * Runs in each frame's isolated world; self-contained (serialized by chrome.scripting). A
 * cross-origin child may compare `parent[i]` with its own window, so it finds its place.
 */
function framePlace(name: string, version: string): KitFramePlace {
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
  } catch { /* no place: read last */ }
  const kit = Reflect.get(globalThis, name) as
    | { version?: string; framesShown?: () => FramePlace["shown"] }
    | undefined;
  if (kit?.version !== version || typeof kit.framesShown !== "function") return { index };
  return { index, shown: kit.framesShown(), kit: true };
}

/** Runs in a frame's isolated world; self-contained: the kit's `page.text`, or KIT_MISSING. */
async function frameText(name: string, version: string, args: unknown): Promise<KitOutcome> {
  const kit = Reflect.get(globalThis, name) as
    | { version?: string; run?: (op: string, args: unknown) => Promise<KitOutcome> }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { ok: false, error: { code: "KIT_MISSING", message: "" } };
  }
  return await kit.run("page.text", args);
}

/** `inject` in `frameIds`; again in those whose answer wants `retry`, after installing the kit there. */
async function withKit<T>(
  tabId: number,
  frameIds: number[],
  inject: (target: chrome.scripting.InjectionTarget) => Promise<
    chrome.scripting.InjectionResult<T>[]
  >,
  retry: (answer: T, frameId: number) => boolean,
): Promise<Map<number, T>> {
  const answers = await inFrames(tabId, frameIds, inject);
  const missing = [...answers].filter(([id, a]) => retry(a, id)).map(([id]) => id);
  if (missing.length === 0) return answers;
  await inFrames(
    tabId,
    missing,
    (target) => chrome.scripting.executeScript({ target, files: [DOM_KIT_FILE] }),
  );
  for (const [id, a] of await inFrames(tabId, missing, inject)) answers.set(id, a);
  return answers;
}

/**
 * Reads the whole tab's text. Answers only the tab id (no `answer`) when the tab has one frame, or
 * its frames cannot be listed, or the top document cannot be scripted: the caller reads the top
 * document as always. First every frame tells its place (cheap, no text); then the top document
 * and at most MAX_FRAMES shown frames are read, each frame with only the characters of
 * `maxLength` the top document's text left.
 */
export async function readTabText(
  input: BrowserInput<"page.text">,
  { calls, sites, siteGrants }: MethodContext,
): Promise<{ tabId: number; answer?: DomAnswer }> {
  const tab = await targetTab({ tabId: input.tabId });
  const tabId = tab.id!;
  const listed = await chrome.webNavigation?.getAllFrames?.({ tabId }).catch(() => null);
  if (!listed || listed.length <= 1) return { tabId };
  const split = await splitByFrameSites(tabId, listed, { sites, siteGrants });
  const { frames, blocked, keptOut: isBlocked } = split;
  const limit = Math.max(1, Math.min(input.maxLength, MAX_CHARS));
  const answer = await calls.run(tabId, "browser_get_page_text", async () => {
    const parents = new Set(frames.map((f) => f.parentFrameId));
    const places: Map<number, FrameAnswer> = await withKit(
      tabId,
      frames.filter((f) => !blocked.has(f.frameId)).map((f) => f.frameId),
      (target) =>
        chrome.scripting.executeScript({
          target,
          func: framePlace,
          args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION],
        }) as Promise<chrome.scripting.InjectionResult<KitFramePlace>[]>,
      // Only a frame holding frames needs the kit, to judge which of them it shows.
      (place, frameId) => !place.kit && parents.has(frameId),
    );
    const read = async (ids: number[], maxLength: number) => {
      const texts = await withKit(
        tabId,
        ids,
        (target) =>
          chrome.scripting.executeScript({
            target,
            func: frameText,
            args: [
              DOM_KIT_GLOBAL,
              DOM_KIT_VERSION,
              { maxLength, includeHidden: input.includeHidden },
            ],
          }) as Promise<chrome.scripting.InjectionResult<KitOutcome>[]>,
        isMissing,
      );
      for (const [id, outcome] of texts) {
        places.set(id, { ...(places.get(id) ?? { index: -1 }), outcome, read: maxLength });
      }
      return texts;
    };
    const top = (await read([0], limit)).get(0);
    if (!top) return undefined;
    const used = top.ok ? (top.value as { totalLength: number }).totalLength : limit;
    placeBlockedFrames(frames, blocked, places, isBlocked);
    // Hidden frames are read too: no parent's list of shown frames is applied.
    if (input.includeHidden) { for (const place of places.values()) delete place.shown; }
    // A frame that told no place is not read: whether its parent shows it is not known.
    const picked = pickFrames(frames, places).shown.map((s) => s.frame.frameId)
      .filter((id) => places.has(id) && !blocked.has(id));
    if (top.ok && picked.length > 0) await read(picked, Math.max(1, limit - used));
    return compose(frames, places, limit, blocked);
  });
  return answer ? { tabId, answer: { tabId, ...answer } } : { tabId };
}

/**
 * Gives each blocked frame (which runs nothing, so tells no place) the index of its parent's frame
 * element that loads it (placeBlocked); one that matches none stays without a place, and is
 * written after its siblings.
 */
function placeBlockedFrames(
  frames: Frame[],
  blocked: ReadonlyMap<number, KeptOut>,
  places: Map<number, FrameAnswer>,
  isBlocked: (url: string) => boolean,
): void {
  const byParent = childrenByParent(frames.filter((f) => blocked.has(f.frameId)));
  for (const [parent, kids] of byParent) {
    const shown = places.get(parent)?.shown;
    const slots = (shown?.indexes ?? []).map((index, i) => ({ index, src: shown?.sources?.[i] }));
    const taken = new Set(
      frames.filter((f) => f.parentFrameId === parent && !blocked.has(f.frameId))
        .map((f) => places.get(f.frameId)?.index ?? -1),
    );
    for (const [frameId, index] of placeBlocked(kids, slots, taken, isBlocked)) {
      if (index >= 0) places.set(frameId, { index });
    }
  }
}

/**
 * The lines hub writes into page text: a frame's header, the "more frames" line and the
 * truncation marker, each possibly after `\` (an escape of its own).
 */
const HUB_LINE = /^(?=\\*(?:--- frame |--- \d+ more frames? not read|…\[truncated))/gm;

/**
 * A document's text with a `\` put before each line that would read as one hub writes, so a page
 * cannot forge a frame header, the "more frames" line or the truncation marker.
 */
export function escapeHubLines(text: string): string {
  return text.replace(HUB_LINE, "\\");
}

/**
 * One document's answer (a selector's, a frame's, a tab without frames) with hub's lines escaped
 * (escapeHubLines), still capped at `maxLength`. An answer with nothing to escape, or without
 * text, is returned as is.
 */
export function guardedText<T extends Capped>(value: T, maxLength: number): T {
  if (typeof value?.text !== "string") return value; // not a text answer: nothing to escape
  const limit = Math.max(1, Math.min(maxLength, MAX_CHARS));
  const cut = value.truncated ? value.text.lastIndexOf("\n…[truncated: showed ") : -1;
  const body = cut < 0 ? value.text : value.text.slice(0, cut);
  const safe = escapeHubLines(body);
  if (safe === body) return value;
  const totalLength = value.totalLength + safe.length - body.length;
  if (cut < 0 && safe.length <= limit) return { ...value, text: safe, totalLength };
  const text = safe.slice(0, limit) + truncationMarker(limit, totalLength, MORE_HINT);
  return { ...value, text, truncated: true, totalLength };
}

const isMissing = (outcome: KitOutcome) => !outcome.ok && outcome.error.code === "KIT_MISSING";

/**
 * A frame's text without the kit's cut marker, hub's lines escaped (escapeHubLines), and its
 * length before the cut.
 */
function textOf(answer: FrameAnswer | undefined, limit: number) {
  const outcome = answer?.outcome;
  if (!outcome?.ok) return undefined;
  const value = outcome.value as unknown as Capped;
  const own = value.truncated ? value.text.slice(0, answer!.read ?? limit) : value.text;
  const text = escapeHubLines(own);
  return {
    text,
    totalLength: value.totalLength + text.length - own.length,
    url: outcome.value.url as string,
  };
}

/**
 * The top document's text, then every frame's under its line, cut at `limit` characters; a
 * kept-out frame's line ends in its mark (`blocked`), without text. Undefined when the top document gave
 * no answer (it cannot be scripted): the caller then reads it as a page without frames, which
 * fails with PAGE_NOT_SCRIPTABLE as always.
 */
export function compose(
  frames: Frame[],
  answers: Map<number, FrameAnswer>,
  limit: number,
  blocked: ReadonlyMap<number, KeptOut> = new Map(),
) {
  const top = answers.get(0)?.outcome;
  if (!top) return undefined;
  if (!top.ok) throw kitFailure(top.error);
  const topText = textOf(answers.get(0), limit)!;
  const { shown, left } = pickFrames(frames, answers);
  let text = topText.text;
  let total = topText.totalLength;
  for (const { frame, number } of shown) {
    const mark = blocked.get(frame.frameId);
    const own = mark ? undefined : textOf(answers.get(frame.frameId), limit);
    const head = `\n\n--- frame ${number}: ${clip(own?.url ?? frame.url, HEADER_URL_CHARS)}`;
    const piece = own ? `${head}\n${own.text}` : `${head} ${mark ?? "(its text cannot be read)"}`;
    text += piece;
    total += own ? head.length + 1 + own.totalLength : piece.length;
  }
  if (left > 0) {
    const more = `\n\n--- ${left} more frame${left === 1 ? "" : "s"} not read ` +
      `(at most ${MAX_FRAMES} are)`;
    text += more;
    total += more.length;
  }
  const value = { url: topText.url, title: (top.value as { title: string }).title };
  if (total <= limit) return { ...value, text, truncated: false, totalLength: total };
  return {
    ...value,
    text: text.slice(0, limit) + truncationMarker(limit, total, MORE_HINT),
    truncated: true,
    totalLength: total,
  };
}
