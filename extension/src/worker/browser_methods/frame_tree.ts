/**
 * A tab's frames as a tree (webNavigation.getAllFrames lists them flat, each with its parent), and
 * which of them the methods that read every frame read (browser_get_page_text, browser_snapshot,
 * browser_wait_for's text checks). Pure: no chrome here.
 */

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
 * Where a frame sits: its index in its parent's `frames`, and the indexes of its own child frames
 * whose element is hidden from people (absent when the frame could not tell).
 */
export interface FramePlace {
  index: number;
  hidden?: number[];
}

/** A frame to read and its number (`1.2`: the second shown frame of frame 1). */
export interface ShownFrame<F> {
  frame: F;
  number: string;
}

/**
 * The frames to read, in document order, nested ones right after their parent, at most
 * MAX_FRAMES (`shown`); and how many more not hidden are left out (`left`). A frame whose
 * `<iframe>` its parent says is hidden is left out, with the frames inside it. Needs only places,
 * so it picks the frames before any text is read.
 */
export function pickFrames<F extends TreeFrame>(frames: F[], places: Map<number, FramePlace>) {
  const children = childrenByParent(frames);
  const place = (f: F) => {
    const index = places.get(f.frameId)?.index ?? -1;
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
    const hidden = places.get(parent)?.hidden ?? [];
    const kept = (children.get(parent) ?? []).filter((frame) => {
      const keep = !hidden.includes(places.get(frame.frameId)?.index ?? -1);
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
