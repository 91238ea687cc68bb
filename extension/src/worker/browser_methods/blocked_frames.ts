/**
 * Frames a whole-tab read (browser_get_page_text without a part, browser_snapshot, browser_wait_for's
 * text) keeps out (docs/decisions/072-site-permissions.md): hub never injects into them nor into
 * the frames inside them, so their content is never read; the reads write one line for each
 * instead, saying why (`KeptOut`): the frame's site is `off`, or it is `ask` and the person has not
 * allowed it for this call (frame_sites.ts decides). A kept-out frame tells no index of its own
 * (nothing runs in it), so it is placed by its parent's frame elements: the one whose `src` is the
 * frame's URL, else one whose `src` is kept out too (a redirect inside it); a frame that matches
 * none is written after its siblings. Pure: no chrome here.
 */
import type { TreeFrame } from "./frame_tree.ts";

/** What the line of a frame whose site is `off` says instead of its content. */
export const BLOCKED_MARK = "[blocked: site not allowed]";
/** What the line of an `ask` frame the person has not allowed for this call says instead. */
export const NOT_READ_MARK = "[not read: site not allowed yet]";
/** Why a frame is kept out of a whole-tab read: the mark its line ends in. */
export type KeptOut = typeof BLOCKED_MARK | typeof NOT_READ_MARK;

/** A frame as webNavigation.getAllFrames lists it, with its URL. */
export interface UrlFrame extends TreeFrame {
  url: string;
}

/**
 * The frames a whole-tab read may touch: every frame but those inside a kept-out one (`frames`,
 * kept-out ones included, in the order given), and the kept-out ones (`blocked`: frameId → why,
 * as `keptOut` judges each frame). The top frame is never kept out here: the site gate has
 * decided it before.
 */
export function splitBlocked<F extends UrlFrame>(
  all: F[],
  keptOut: (frame: F) => KeptOut | undefined,
): { frames: F[]; blocked: Map<number, KeptOut> } {
  const blocked = new Map<number, KeptOut>();
  for (const frame of all) {
    if (frame.frameId === 0 || frame.parentFrameId < 0) continue;
    const why = keptOut(frame);
    if (why) blocked.set(frame.frameId, why);
  }
  if (blocked.size === 0) return { frames: all, blocked };
  const parentOf = new Map(all.map((f) => [f.frameId, f.parentFrameId]));
  const inside = (frame: F) => {
    const seen = new Set<number>();
    for (let at = parentOf.get(frame.frameId); at !== undefined && at >= 0; at = parentOf.get(at)) {
      if (blocked.has(at)) return true;
      if (seen.has(at)) return false; // a broken listing: no loop
      seen.add(at);
    }
    return false;
  };
  return { frames: all.filter((f) => !inside(f)), blocked };
}

/** One frame element of a parent document: its index in the parent's `frames`, its `src`. */
export interface FrameSlot {
  index: number;
  src?: string;
}

/**
 * Each blocked child's index among its parent's frame elements (`slots`), by frameId; -1 when none
 * matches. An index `taken` (a child that told its own) or given to an earlier blocked child is
 * not given again. A `src` equal to the frame's URL wins; then one whose site is blocked too.
 */
export function placeBlocked(
  kids: UrlFrame[],
  slots: FrameSlot[],
  taken: ReadonlySet<number>,
  isBlocked: (url: string) => boolean,
): Map<number, number> {
  const used = new Set(taken);
  const placed = new Map<number, number>();
  const free = (slot: FrameSlot) => slot.index >= 0 && !used.has(slot.index);
  const give = (kid: UrlFrame, slot: FrameSlot | undefined) => {
    if (!slot) return false;
    used.add(slot.index);
    placed.set(kid.frameId, slot.index);
    return true;
  };
  const sorted = [...kids].sort((a, b) => a.frameId - b.frameId);
  const left = sorted.filter((kid) => !give(kid, slots.find((s) => free(s) && s.src === kid.url)));
  for (const kid of left) {
    if (!give(kid, slots.find((s) => free(s) && s.src !== undefined && isBlocked(s.src)))) {
      placed.set(kid.frameId, -1);
    }
  }
  return placed;
}
