/**
 * browser_snapshot's outline of a whole tab from each frame document's own outline (the kit's
 * `page.snapshot` answer): the top document's lines, and each frame document's lines nested under
 * its parent's `- iframe` line (docs/decisions/063-refs-across-frames.md). Pure: no chrome here.
 */
import { outlineHeader } from "../../../../protocol/browser_methods/outline_header.ts";
import { frameRef } from "../../../../protocol/browser_methods/refs.ts";
import { SNAPSHOT_TAB_MAX_CHARS } from "../../../../protocol/browser_methods/dom_limits.ts";
import type { DocumentOutline } from "../../page/dom_snapshot.ts";
import { childrenByParent, shadowChildrenShown } from "./frame_tree.ts";
import { type KeptOut, placeBlocked } from "./blocked_frames.ts";

/** One frame of the tab, as webNavigation.getAllFrames lists it. */
export interface SnapshotFrame {
  frameId: number;
  /** -1 for the top frame. */
  parentFrameId: number;
  documentId?: string;
  url?: string;
}

/**
 * What the kit's `page.snapshot` answers for one document (page/dom_snapshot.ts): its url, title,
 * own index in its parent's `window.frames` (-1: none, or the top), its formatted lines (two
 * spaces per depth, `- ` first; iframe lines without their ref), its iframe lines and the child
 * frames it shows (`framesShown`, absent with includeHidden).
 */
export type DocOutline = DocumentOutline;

/** One frame's document as the handler read it: its `k` and, when it could be read, its outline. */
export interface FrameRead {
  k: number;
  outline?: DocOutline;
}

export interface ComposedOutline {
  /** Every line, joined with "\n", the header line first. */
  text: string;
  /** Per child document `k` placed under an iframe line, that `<iframe>` element's ref. */
  owners: Map<number, string>;
  /**
   * The child documents (`k`) whose content the outline leaves out though their `<iframe>` may
   * be shown: they did not answer, or could not be told apart from a hidden frame. A `since` diff
   * lists none of their lines as removed (snapshot_diff.ts).
   */
  unread: Set<number>;
}

export interface ComposeOptions {
  /** The document the outline starts from (default 0, the top frame). */
  rootFrameId?: number;
  /**
   * Children of the root document that do not match one of its iframe lines are left out (a
   * subtree outline: they are outside the subtree) instead of listed at its end.
   */
  subtree?: boolean;
  /**
   * The frames kept out by their site (not read; the frames inside them are not listed), each
   * with the mark its line ends in, and whether a URL is kept out, to place them by their
   * iframe's `src` (blocked_frames.ts, frame_sites.ts).
   */
  blocked?: { ids: ReadonlyMap<number, KeptOut>; isBlocked: (url: string) => boolean };
}

/**
 * The tab's outline: the header `# <title> — <url>`, then the root document's lines with each
 * readable child frame's lines under the parent's iframe line (matched by the child's own
 * `index`), indented two spaces deeper, the iframe line ending in ` [ref=f<k>]`. An iframe line
 * whose frame could not be read keeps the element's own ref, after ` [not read]` when a child of
 * that document did not answer (so the agent does not take the frame for an empty one). A child
 * that cannot be placed (an iframe inside a shadow root answers index -1) goes at the end of its
 * parent's outline under `- iframe [ref=f<k>]` (by frameId), only when no more children answer -1
 * than the parent shows iframe lines of index -1 and the parent saw no hidden frame element in a
 * shadow root (`framesShown`, shadowChildrenShown): else any of them may be a hidden one (a closed
 * shadow root's, which no line counts), so none is shown, their content stays out and the
 * parent's iframe lines of index -1 read ` [not read]`. A child with an index that
 * matches no line is left out: its `<iframe>` is hidden from people (or outside the outlined
 * subtree), so its content is too. `reads` is keyed by frameId; a frame absent from it was not
 * read. A kept-out frame (options.blocked) is one line, its iframe's line ending in its mark
 * (` [blocked: site not allowed]`, ` [not read: site not allowed yet]`; no ref, no content), or
 * `- iframe <mark>` at the end of its parent's outline when no iframe line matches it.
 */
export function composeOutline(
  header: { title: string; url: string },
  frames: SnapshotFrame[],
  reads: Map<number, FrameRead>,
  options: ComposeOptions = {},
  maxChars = SNAPSHOT_TAB_MAX_CHARS,
): ComposedOutline {
  const root = options.rootFrameId ?? 0;
  const children = childrenByParent(frames, root);
  const owners = new Map<number, string>();
  const unread = new Set<number>();
  const out = [outlineHeader(header.title, header.url)];
  let size = out[0].length;
  let full = false;
  // Every line goes through here: past the tab's budget, the outline stops with one line.
  const push = (line: string) => {
    if (full) return;
    size += line.length + 1;
    if (size <= maxChars) return void out.push(line);
    full = true;
    out.push(tabStopped(maxChars));
  };
  const visit = (frameId: number, indent: string, depth: number) => {
    const outline = reads.get(frameId)?.outline;
    if (!outline || full) return;
    const noneAtEnd = !!options.subtree && depth === 0;
    const kids = children.get(frameId) ?? [];
    const { byIndex, atEnd, unreadShadow, silent, unreadKs } = placeChildren(
      outline,
      kids.filter((kid) => !options.blocked?.ids.has(kid.frameId)),
      reads,
      noneAtEnd,
    );
    const blocked = blockedLines(outline, kids, byIndex, options.blocked, noneAtEnd);
    for (const k of unreadKs) unread.add(k);
    const lineFrames = new Map(outline.frames.map((f) => [f.line, f]));
    outline.lines.forEach((line, i) => {
      const frameLine = lineFrames.get(i);
      const kid = frameLine && frameLine.index >= 0 ? byIndex.get(frameLine.index) : undefined;
      if (!frameLine) return void push(indent + line);
      const mark = blocked.byIndex.get(frameLine.index);
      if (mark) return void push(`${indent}${line} ${mark}`);
      if (!kid) {
        const notRead = frameLine.index < 0 ? unreadShadow : silent.length > 0;
        return void push(`${indent}${line}${notRead ? " [not read]" : ""} [ref=${frameLine.ref}]`);
      }
      const k = reads.get(kid.frameId)!.k;
      owners.set(k, frameLine.ref);
      push(`${indent}${line} [ref=${frameRef(k)}]`);
      visit(kid.frameId, indent + leadingSpaces(line) + "  ", depth + 1);
    });
    for (const kid of atEnd) {
      push(`${indent}- iframe [ref=${frameRef(reads.get(kid.frameId)!.k)}]`);
      visit(kid.frameId, indent + "  ", depth + 1);
    }
    for (const mark of blocked.atEnd) push(`${indent}- iframe ${mark}`);
  };
  visit(root, "", 0);
  return { text: out.join("\n"), owners, unread };
}

/**
 * Where the children of one document go: by their own index under the iframe line with that
 * index (`byIndex`), at the end of the parent's outline (`atEnd`, those that cannot be placed),
 * or nowhere. `silent` are the children that did not answer; `unreadKs` the documents whose
 * content stays out though their iframe may show; `unreadShadow` whether the parent's iframe lines
 * of index -1 read ` [not read]`. `noneAtEnd`: a subtree's root lists no child at its end.
 */
function placeChildren(
  outline: DocOutline,
  all: SnapshotFrame[],
  reads: Map<number, FrameRead>,
  noneAtEnd: boolean,
) {
  const kids = all.filter((f) => reads.get(f.frameId)?.outline);
  kids.sort((a, b) => a.frameId - b.frameId);
  const indexOf = (kid: SnapshotFrame) => reads.get(kid.frameId)!.outline!.index;
  const silent = all.filter((f) => !reads.get(f.frameId)?.outline);
  const unplaced = kids.filter((kid) => indexOf(kid) < 0);
  // An allow-list: the -1 children show only when they cannot be a hidden frame's (see above).
  const shadowLines = outline.frames.filter((f) => f.index < 0).length;
  const shadowHidden = outline.framesShown?.shadowHidden ?? false;
  const counted = { indexes: [], shadowShown: shadowLines, shadowHidden };
  const allowed = shadowChildrenShown(counted, unplaced.length);
  const dropped = allowed ? [] : unplaced;
  const unreadKs = [...silent, ...dropped].flatMap((f) => {
    const k = reads.get(f.frameId)?.k;
    return k === undefined ? [] : [k];
  });
  const byIndex = new Map<number, SnapshotFrame>();
  for (const kid of kids) {
    const index = indexOf(kid);
    if (index >= 0 && !byIndex.has(index)) byIndex.set(index, kid);
  }
  const atEnd = dropped.length > 0 || noneAtEnd ? [] : unplaced;
  const unreadShadow = dropped.length > 0 || (silent.length > 0 && atEnd.length < shadowLines);
  return { byIndex, atEnd, unreadShadow, silent, unreadKs };
}

/**
 * Where a document's kept-out children go: under the iframe line of the index placeBlocked gives
 * them (`byIndex`, index → mark), or, matching none, the marks of the lines at the end (`atEnd`;
 * none for a subtree's root). The indexes its read children took are not given.
 */
function blockedLines(
  outline: DocOutline,
  kids: SnapshotFrame[],
  taken: Map<number, SnapshotFrame>,
  blocked: ComposeOptions["blocked"],
  noneAtEnd: boolean,
): { byIndex: Map<number, KeptOut>; atEnd: KeptOut[] } {
  const mine = kids.filter((kid) => blocked?.ids.has(kid.frameId));
  if (!blocked || mine.length === 0) return { byIndex: new Map(), atEnd: [] };
  const placed = placeBlocked(
    mine.map((kid) => ({ ...kid, url: kid.url ?? "" })),
    outline.frames.map((f) => ({ index: f.index, ...(f.src ? { src: f.src } : {}) })),
    new Set(taken.keys()),
    blocked.isBlocked,
  );
  const byIndex = new Map<number, KeptOut>();
  const atEnd: KeptOut[] = [];
  for (const [frameId, index] of [...placed].sort((a, b) => a[0] - b[0])) {
    const mark = blocked.ids.get(frameId)!;
    if (index >= 0) byIndex.set(index, mark);
    else if (!noneAtEnd) atEnd.push(mark);
  }
  return { byIndex, atEnd };
}

/** The last line of a tab's outline that passed `maxChars` (a `#` line: hub's, not the page's). */
export function tabStopped(maxChars: number): string {
  return `# outline stopped: this tab's outline passed ${maxChars} characters; outline a part ` +
    "with ref or selector";
}

function leadingSpaces(line: string): string {
  return /^ */.exec(line)![0];
}

/**
 * The frames to read besides the root, at most `max`: the root's descendants, nearest first
 * (breadth first, by frameId among siblings), so a cap leaves out the deepest ones.
 */
export function framesToRead(
  frames: SnapshotFrame[],
  rootFrameId: number,
  max: number,
): SnapshotFrame[] {
  const picked: SnapshotFrame[] = [];
  let level = [rootFrameId];
  while (level.length > 0 && picked.length < max) {
    const parents = new Set(level);
    const next = frames
      .filter((f) => parents.has(f.parentFrameId) && f.frameId !== rootFrameId)
      .sort((a, b) => a.frameId - b.frameId)
      .slice(0, max - picked.length);
    picked.push(...next);
    level = next.map((f) => f.frameId);
  }
  return picked;
}
