/**
 * Refs: the short names browser_snapshot and browser_query_elements give elements, which every
 * selector tool takes as `ref` (docs/decisions/063-refs-across-frames.md). `e<n>` is an element of
 * the tab's top document, `f<k>e<n>` an element of another frame's document, `f<k>` that frame (its
 * `<iframe>`). `n` is counted by the page kit per document, `k` by the extension per tab; nothing
 * in a ref comes from the page. Kept free of imports so the page bundle can use it.
 */

/** A frame's ref as browser_snapshot writes it and the `frame` parameter takes it: `f<k>`. */
export const FRAME_REF_PATTERN = /^f[1-9]\d{0,5}$/;

/** Whether `text` is a frame's ref (`f1`), not a CSS selector. */
export function isFrameRef(text: string): boolean {
  return FRAME_REF_PATTERN.test(text);
}

/** The `f<k>` part of a ref, without anchors. */
const FRAME_PART = FRAME_REF_PATTERN.source.slice(1, -1);

/** A ref as an agent writes it: `e12`, `f1e3` or `f1`. */
export const REF_PATTERN = new RegExp(`^(?:${FRAME_PART})?(?:e[1-9]\\d{0,8})?$`);

/** Most characters of a ref (`f999999e999999999`). */
export const REF_MAX_CHARS = 17;

/** A ref taken apart: the frame document `k` (0: the top document) and the element `n`. */
export interface ParsedRef {
  frame: number;
  /** Absent for a frame's ref (`f1`): the frame itself. */
  element?: number;
}

/** `text` taken apart, or undefined when it is not a ref. */
export function parseRef(text: string): ParsedRef | undefined {
  if (text.length === 0 || text.length > REF_MAX_CHARS || !REF_PATTERN.test(text)) {
    return undefined;
  }
  const match = /^(?:f(\d+))?(?:e(\d+))?$/.exec(text)!;
  return {
    frame: match[1] ? Number(match[1]) : 0,
    ...(match[2] ? { element: Number(match[2]) } : {}),
  };
}

/** The prefix of the refs of frame document `k`: "" for the top document, `f<k>` otherwise. */
export function refPrefix(frame: number): string {
  return frame === 0 ? "" : `f${frame}`;
}

/** Element `n` of frame document `k` (0: the top document). */
export function formatRef(frame: number, element: number): string {
  return `${refPrefix(frame)}e${element}`;
}

/** The ref of frame document `k` itself (`f<k>`, k ≥ 1). */
export function frameRef(frame: number): string {
  return `f${frame}`;
}

/** The message of REF_STALE, the same wherever a ref turns out stale. */
export function staleRefMessage(ref: string): string {
  return `Ref "${ref.slice(0, REF_MAX_CHARS)}" is stale: its element is gone or its page ` +
    "changed since the snapshot. Take a new browser_snapshot (or browser_query_elements) and use " +
    "its refs.";
}
