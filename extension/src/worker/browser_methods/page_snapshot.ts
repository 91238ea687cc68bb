/**
 * `page.snapshot` (browser_snapshot): the outline of a tab's page, every frame included
 * (docs/decisions/063-refs-across-frames.md). The tab's frames (webNavigation.getAllFrames) each
 * get their document's `k` and ref scheme from the frame table (ref_frames.ts); the DOM kit
 * outlines each document (`page.snapshot`, page/dom_snapshot.ts), all at once, each aimed at its
 * document id and a child given FRAME_ANSWER_MS to answer; the outlines are nested into one
 * (snapshot_compose.ts), kept for a later `since` (snapshot_store.ts), diffed when `since` asks
 * (snapshot_diff.ts) and cut to `maxBytes` from `offset` (snapshot_cut.ts). A frame whose site is
 * `off`, or `ask` and not allowed for this call, is not read, nor the frames inside it: one line
 * stands for it (frame_sites.ts, blocked_frames.ts).
 */
import type { BrowserInput, SnapshotResult } from "../../../../protocol/browser_methods/mod.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { withTimeout } from "../../../../protocol/with_timeout.ts";
import type { KitArgs, KitOutcome } from "../../page/dom_kit_types.ts";
import type { KitRef, RefScheme } from "../../page/dom_refs.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import {
  type CallPlace,
  goneError,
  goneErrorOf,
  placeCall,
  type PlaceContext,
} from "./call_place.ts";
import { kitFailure, runInTab } from "./dom_call.ts";
import { FRAME_ANSWER_MS } from "./frame_scripting.ts";
import { isFramesShown, MAX_FRAMES } from "./frame_tree.ts";
import type { RefFrames } from "./ref_frames.ts";
import {
  composeOutline,
  type DocOutline,
  type FrameRead,
  framesToRead,
} from "./snapshot_compose.ts";
import { cutSnapshot } from "./snapshot_cut.ts";
import { splitByFrameSites } from "./frame_sites.ts";
import { diffOutlines } from "./snapshot_diff.ts";

type Input = BrowserInput<"page.snapshot">;
type Frame = chrome.webNavigation.GetAllFrameResultDetails;

export const pageSnapshot: BrowserMethod<"page.snapshot"> = async (input, context) => {
  const tab = await targetTab({ tabId: input.tabId });
  const tabId = tab.id!;
  return await context.calls.run(tabId, "browser_snapshot", () => snapshotTab(tab, input, context));
};

/** The stores a snapshot reads and writes. */
type Stores = Pick<
  MethodContext,
  "refFrames" | "snapshots" | "sites" | "siteGrants" | "frameSite"
>;

/** Where the outline starts: a document (by frame) and, for a subtree, the kit's root. */
interface Root {
  frame: Frame;
  args: { ref?: KitRef; selector?: string };
  /** How the call names the root's document, for the error when that document is gone. */
  place?: Pick<CallPlace, "gone" | "named">;
}

async function snapshotTab(
  tab: chrome.tabs.Tab,
  input: Input,
  stores: Stores,
): Promise<SnapshotResult> {
  const { refFrames, snapshots } = stores;
  const tabId = tab.id!;
  const { frames, blocked, keptOut } = await splitByFrameSites(
    tabId,
    await liveFrames(tabId),
    stores,
  );
  const top = frames.find((f) => f.frameId === 0);
  if (!top?.documentId) {
    throw hubError(
      "EXTENSION_ERROR",
      `The browser did not list tab ${tabId}'s document. Reload the tab and call again.`,
    );
  }
  const key = JSON.stringify([
    input.ref,
    input.selector,
    input.frame,
    input.interactiveOnly,
    input.includeHidden,
    input.since,
  ]);
  const earlier = input.offset > 0 ? snapshots.latest(tabId, key, top.documentId) : undefined;
  if (earlier?.answer !== undefined && earlier.head) {
    return answer(tabId, earlier.head, earlier.id, earlier.answer, input);
  }
  const root = await rootOf(tabId, frames, input, stores);
  const readable = frames.filter((f) => !blocked.has(f.frameId));
  const reads = await readFrames(tabId, readable, root, input, refFrames);
  const rootOutline = reads.get(root.frame.frameId)?.outline;
  const header = root.frame.frameId === 0 && rootOutline
    ? { title: rootOutline.title, url: rootOutline.url }
    : { title: tab.title ?? "", url: tab.url ?? "" };
  const subtree = root.args.ref !== undefined || root.args.selector !== undefined;
  const { text, owners, unread } = composeOutline(header, frames, reads, {
    rootFrameId: root.frame.frameId,
    subtree,
    blocked: { ids: blocked, isBlocked: keptOut },
  });
  await Promise.all([...owners].map(([k, owner]) => refFrames.setOwner(tabId, k, owner)));
  const before = input.since === undefined
    ? undefined
    : snapshots.textOf(tabId, input.since, top.documentId);
  const full = before === undefined
    ? text
    : diffOutlines(before, text, input.since!, header, unread);
  const id = snapshots.keep(tabId, top.documentId, text, { key, answer: full, head: header });
  return answer(tabId, header, id, full, input);
}

function answer(
  tabId: number,
  header: { title: string; url: string },
  snapshotId: string,
  text: string,
  input: Input,
): SnapshotResult {
  return { tabId, ...header, snapshotId, ...cutSnapshot(text, input.maxBytes, input.offset) };
}

/** The tab's frames that hold a live document (not prerendered, cached or on their way out). */
async function liveFrames(tabId: number): Promise<Frame[]> {
  const frames = await chrome.webNavigation.getAllFrames({ tabId }) ?? [];
  return frames.filter((f) =>
    f.documentId && (!f.documentLifecycle || f.documentLifecycle === "active")
  );
}

/**
 * The document and kit root of `ref`, `frame` and `selector` (call_place.ts's placeCall; a frame's
 * ref `f<k>` as `ref` is its `<iframe>`, whose frame is nested under it); without them, the top
 * document.
 */
async function rootOf(
  tabId: number,
  frames: Frame[],
  input: Input,
  context: PlaceContext,
): Promise<Root> {
  const selector = input.selector ? { selector: input.selector } : {};
  if (input.ref === undefined && input.frame === undefined) {
    return { frame: frames.find((f) => f.frameId === 0)!, args: selector, place: { gone: "top" } };
  }
  const place = await placeCall(tabId, input.ref, input.frame, context);
  const frame = frames.find((f) =>
    place.documentId !== undefined
      ? f.documentId === place.documentId
      : place.target.frameIds?.includes(f.frameId)
  );
  if (!frame) throw goneErrorOf(place);
  return { frame, args: { ...selector, ...(place.ref ? { ref: place.ref } : {}) }, place };
}

/**
 * Each document's `k` and outline: the root's (its failure is the call's), and those of at most
 * MAX_FRAMES frames under it (one that fails or is late has no outline).
 */
async function readFrames(
  tabId: number,
  frames: Frame[],
  root: Root,
  input: Input,
  refFrames: RefFrames,
): Promise<Map<number, FrameRead>> {
  const flags = { interactiveOnly: input.interactiveOnly, includeHidden: input.includeHidden };
  const others = framesToRead(frames, root.frame.frameId, MAX_FRAMES) as Frame[];
  const reads = new Map<number, FrameRead>();
  const readOne = async (frame: Frame, args: Record<string, unknown>, bounded: boolean) => {
    const { k, scheme } = await refFrames.schemeFor(tabId, frame.frameId, frame.documentId);
    const run = outlineOf(tabId, frame.documentId, args, scheme);
    const outcome = bounded
      ? await withTimeout(run.catch(() => undefined), FRAME_ANSWER_MS, undefined)
      : await run;
    if (outcome?.ok && outcome.doc) {
      const current = await refFrames.recordDoc(tabId, k, outcome.doc, frame.documentId);
      // A new top document took k = 0 while this one was read: its refs would name the new
      // page's elements (R2#15), so they are not handed out.
      if (!current && k === 0 && !bounded) throw goneErrorOf(root.place ?? { gone: "top" });
    }
    const outline = outcome?.ok ? asOutline(outcome.value) : undefined;
    reads.set(frame.frameId, { k, outline });
    return outcome;
  };
  const [first] = await Promise.all([
    readOne(root.frame, { ...root.args, ...flags }, false).catch(staleRoot(root)),
    ...others.map((f) => readOne(f, flags, true)),
  ]);
  if (first && !first.ok) throw kitFailure(first.error);
  return reads;
}

/** The kit's `page.snapshot` in document `documentId`, its refs written by `scheme`. */
async function outlineOf(
  tabId: number,
  documentId: string,
  args: Record<string, unknown>,
  scheme: RefScheme,
): Promise<KitOutcome> {
  const target = { tabId, documentIds: [documentId] };
  return await runInTab(target, "page.snapshot", args as KitArgs<"page.snapshot">, false, scheme);
}

/**
 * Chrome refusing the root's document (it is gone): REF_STALE when a ref named it, TAB_NAVIGATED
 * for a frame selector's or the top document.
 */
function staleRoot(root: Root) {
  return (error: unknown): never => {
    throw root.place ? goneError(root.place, error) : error;
  };
}

/** The kit's answer as an outline, or undefined when it is not one (another kit version). */
function asOutline(value: Record<string, unknown>): DocOutline | undefined {
  const { url, title, index, lines, frames, framesShown } = value;
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string")) return undefined;
  return {
    url: String(url ?? ""),
    title: String(title ?? ""),
    index: typeof index === "number" ? index : -1,
    lines,
    frames: Array.isArray(frames) ? frames : [],
    ...(isFramesShown(framesShown) ? { framesShown } : {}),
  };
}
