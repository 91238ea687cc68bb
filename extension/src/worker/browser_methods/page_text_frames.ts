/**
 * browser_get_page_text without a selector, on a tab with frames: the top document's text first,
 * then each frame's text (same-origin and cross-origin, nested) under a line naming it:
 *
 *     --- frame 1: http://localhost:8000/child
 *     --- frame 1.1: http://localhost:8000/grandchild
 *
 * in document order (a frame's number is its place among its parent's shown frames; nested frames
 * follow their parent's text). A frame whose `<iframe>` is hidden from people is left out, with
 * the frames inside it. A frame whose document cannot be scripted gets its line and
 * `(its text cannot be read)`. At most PAGE_TEXT_MAX_FRAMES frames are read; the whole is capped
 * by `maxLength` like one document's text. Frames are read at once, one `executeScript` each; a
 * frame that does not answer within FRAME_ANSWER_MS (frame_scripting.ts) reads as one that cannot
 * be scripted.
 */
import type { BrowserInput, DomAnswer } from "../../../../protocol/browser_methods/mod.ts";
import { MAX_CHARS, truncationMarker } from "../../../../protocol/text_cap.ts";
import {
  DOM_KIT_FILE,
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import { type MethodContext, targetTab } from "./browser_method.ts";
import { kitFailure } from "./dom_call.ts";
import { inFrames } from "./frame_scripting.ts";

/** The most frames (besides the top document) whose text one call reads. */
export const PAGE_TEXT_MAX_FRAMES = 50;

const MORE_HINT = "Pass a selector to read one part of the page, or a larger maxLength " +
  `(at most ${MAX_CHARS}).`;

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

/**
 * What one frame answers: the kit's outcome, the frame's index in its parent's `frames`, and the
 * indexes of its own child frames whose element is hidden from people.
 */
interface FrameAnswer {
  outcome: KitOutcome;
  index: number;
  hidden?: number[];
}

/**
 * Runs in each frame's isolated world; self-contained (serialized by chrome.scripting). A
 * cross-origin child may compare `parent[i]` with its own window, so it finds its place.
 */
async function frameText(name: string, version: string, args: unknown): Promise<FrameAnswer> {
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
    | {
      version?: string;
      run?: (op: string, args: unknown) => Promise<KitOutcome>;
      hiddenFrames?: () => number[];
    }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { outcome: { ok: false, error: { code: "KIT_MISSING", message: "" } }, index };
  }
  const outcome = await kit.run("page.text", args);
  return { outcome, index, hidden: kit.hiddenFrames?.() ?? [] };
}

/**
 * Reads the whole tab's text. Answers only the tab id (no `answer`) when the tab has one frame, or
 * its frames cannot be listed: the caller reads the top document as always.
 */
export async function readTabText(
  input: BrowserInput<"page.text">,
  { calls }: MethodContext,
): Promise<{ tabId: number; answer?: DomAnswer }> {
  const tab = await targetTab({ tabId: input.tabId });
  const tabId = tab.id!;
  const frames = await chrome.webNavigation?.getAllFrames?.({ tabId }).catch(() => null);
  if (!frames || frames.length <= 1) return { tabId };
  const limit = Math.max(1, Math.min(input.maxLength, MAX_CHARS));
  const answer = await calls.run(tabId, "browser_get_page_text", async () => {
    const ids = frames.map((f) => f.frameId);
    const args = { maxLength: limit };
    const call = (target: chrome.scripting.InjectionTarget) =>
      chrome.scripting.executeScript({
        target,
        func: frameText,
        args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, args],
      }) as Promise<chrome.scripting.InjectionResult<FrameAnswer>[]>;
    const answers = await inFrames(tabId, ids, call);
    const missing = [...answers].filter(([, a]) => isMissing(a.outcome)).map(([id]) => id);
    if (missing.length > 0) {
      await inFrames(
        tabId,
        missing,
        (target) => chrome.scripting.executeScript({ target, files: [DOM_KIT_FILE] }),
      );
      for (const [id, a] of await inFrames(tabId, missing, call)) answers.set(id, a);
    }
    return compose(frames, answers, limit);
  });
  return answer ? { tabId, answer: { tabId, ...answer } } : { tabId };
}

const isMissing = (outcome: KitOutcome) => !outcome.ok && outcome.error.code === "KIT_MISSING";

/** A frame's text without the kit's cut marker, and its length before the cut. */
function textOf(outcome: KitOutcome, limit: number) {
  if (!outcome.ok) return undefined;
  const value = outcome.value as { text: string; truncated: boolean; totalLength: number };
  return {
    text: value.truncated ? value.text.slice(0, limit) : value.text,
    totalLength: value.totalLength,
    url: outcome.value.url as string,
  };
}

/**
 * The top document's text, then every frame's under its line, cut at `limit` characters.
 * Undefined when the top document gave no answer (it cannot be scripted): the caller then reads it
 * as a page without frames, which fails with PAGE_NOT_SCRIPTABLE as always.
 */
export function compose(frames: Frame[], answers: Map<number, FrameAnswer>, limit: number) {
  const top = answers.get(0)?.outcome;
  if (!top) return undefined;
  if (!top.ok) throw kitFailure(top.error);
  const topText = textOf(top, limit)!;
  const children = new Map<number, Frame[]>();
  for (const frame of frames) {
    if (frame.frameId === 0) continue;
    const siblings = children.get(frame.parentFrameId) ?? [];
    siblings.push(frame);
    children.set(frame.parentFrameId, siblings);
  }
  const place = (f: Frame) => {
    const index = answers.get(f.frameId)?.index ?? -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  for (const list of children.values()) {
    list.sort((a, b) => place(a) - place(b) || a.frameId - b.frameId);
  }
  let text = topText.text;
  let total = topText.totalLength;
  let read = 0;
  let left = frames.length - 1;
  const count = (id: number): number =>
    (children.get(id) ?? []).reduce((n, f) => n + 1 + count(f.frameId), 0);
  const visit = (parent: number, path: string) => {
    const hidden = answers.get(parent)?.hidden ?? [];
    const shown = (children.get(parent) ?? []).filter((frame) => {
      const keep = !hidden.includes(answers.get(frame.frameId)?.index ?? -1);
      if (!keep) left -= 1 + count(frame.frameId);
      return keep;
    });
    shown.forEach((frame, i) => {
      if (read >= PAGE_TEXT_MAX_FRAMES) return;
      read++;
      left--;
      const number = path ? `${path}.${i + 1}` : `${i + 1}`;
      const answer = answers.get(frame.frameId);
      const own = answer ? textOf(answer.outcome, limit) : undefined;
      const head = `\n\n--- frame ${number}: ${own?.url ?? frame.url}`;
      const piece = own ? `${head}\n${own.text}` : `${head} (its text cannot be read)`;
      text += piece;
      total += own ? head.length + 1 + own.totalLength : piece.length;
      visit(frame.frameId, number);
    });
  };
  visit(0, "");
  if (left > 0) {
    const more = `\n\n--- ${left} more frame${left === 1 ? "" : "s"} not read ` +
      `(at most ${PAGE_TEXT_MAX_FRAMES} are)`;
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
