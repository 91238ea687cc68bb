/**
 * A tab's frames as a tree (webNavigation.getAllFrames lists them flat, each with its parent), and
 * which of them the methods that read every frame read (browser_get_page_text, browser_snapshot,
 * browser_wait_for's text checks). Pure: no chrome here.
 */
import type { FramesShown } from "../../page/dom_kit_types.ts";

/** The most frames (besides the top or root document) one call reads. */
export const MAX_FRAMES = 50;

/** A frame as webNavigation.getAllFrames lists it (-1: the top frame's parent). */
export interface TreeFrame {
  frameId: number;
  parentFrameId: number;
}

/**
 * Each frame's child frames, by the parent's frameId, in the order listed; the root (default: the
 * top frame) and frames without a parent are nobody's child.
 */
export function childrenByParent<F extends TreeFrame>(
  frames: F[],
  rootFrameId = 0,
): Map<number, F[]> {
  const children = new Map<number, F[]>();
  for (const frame of frames) {
    if (frame.frameId === rootFrameId || frame.parentFrameId < 0) continue;
    const siblings = children.get(frame.parentFrameId) ?? [];
    siblings.push(frame);
    children.set(frame.parentFrameId, siblings);
  }
  return children;
}

/**
 * Where a frame sits: its index in its parent's `frames`, and the child frames it shows (the
 * kit's framesShown; absent when the frame could not tell).
 */
export interface FramePlace {
  index: number;
  shown?: FramesShown;
}

/** A kit's `framesShown` answer (dom_kit_types.ts FramesShown), checked as it crossed. */
export function isFramesShown(value: unknown): value is FramesShown {
  const shown = value as FramesShown | undefined;
  return typeof shown === "object" && shown !== null && Array.isArray(shown.indexes) &&
    typeof shown.shadowShown === "number" && typeof shown.shadowHidden === "boolean";
}

/**
 * Whether a parent's children of index -1 (frames in its shadow roots) may be shown: only when it
 * saw no hidden frame element in a shadow root and at most as many children answer -1 as it saw
 * shown frame elements there (more: some sit in closed shadow roots it could not look into, so
 * any of them may be hidden).
 */
export function shadowChildrenShown(shown: FramesShown, unplaced: number): boolean {
  return !shown.shadowHidden && unplaced <= shown.shadowShown;
}

/** A frame to read and its number (`1.2`: the second shown frame of frame 1). */
export interface ShownFrame<F> {
  frame: F;
  number: string;
}

/**
 * The frames to read, in document order, nested ones right after their parent, at most
 * MAX_FRAMES (`shown`); and how many more not hidden are left out (`left`). A frame is read only
 * when its parent shows it (an allow-list, FramePlace `shown`): its index is one of the parent's
 * shown frame elements, or it has none (-1, a shadow root's frame) and shadowChildrenShown allows
 * those; otherwise it is left out, with the frames inside it. A parent that could not tell keeps
 * its children. A frame without a place (it did not answer) is kept, not counted among the -1
 * ones: its callers read no text of it (page text reads only placed frames; a wait has no answer
 * of it). Needs only places, so it picks the frames before any text is read.
 */
export function pickFrames<F extends TreeFrame>(frames: F[], places: Map<number, FramePlace>) {
  const children = childrenByParent(frames);
  const indexOf = (f: F) => places.get(f.frameId)?.index ?? -1;
  const place = (f: F) => {
    const index = indexOf(f);
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  for (const list of children.values()) {
    list.sort((a, b) => place(a) - place(b) || a.frameId - b.frameId);
  }
  const shown: ShownFrame<F>[] = [];
  let left = frames.length - 1;
  const count = (id: number): number =>
    (children.get(id) ?? []).reduce((n, f) => n + 1 + count(f.frameId), 0);
  const visit = (parent: number, path: string) => {
    const allowed = places.get(parent)?.shown;
    const kids = children.get(parent) ?? [];
    const known = (frame: F) => places.has(frame.frameId);
    const unplaced = kids.filter((frame) => known(frame) && indexOf(frame) < 0).length;
    const shadowOk = !allowed || shadowChildrenShown(allowed, unplaced);
    const kept = kids.filter((frame) => {
      const index = indexOf(frame);
      const keep = !known(frame) ||
        (index < 0 ? shadowOk : !allowed || allowed.indexes.includes(index));
      if (!keep) left -= 1 + count(frame.frameId);
      return keep;
    });
    kept.forEach((frame, i) => {
      if (shown.length >= MAX_FRAMES) return;
      left--;
      const number = path ? `${path}.${i + 1}` : `${i + 1}`;
      shown.push({ frame, number });
      visit(frame.frameId, number);
    });
  };
  visit(0, "");
  return { shown, left };
}
