/**
 * Which frames of a tab a whole-tab read (snapshot, page text, wait_for's text) reads, by each
 * frame's own site (docs/decisions/072-site-permissions.md). A frame is read when its site is
 * `auto`, or `ask` and granted for this call (`siteGrants`), or has the top page's site key (the
 * person allowed that site for the tab already); a frame whose site is `off` is kept out as
 * blocked, an `ask` frame not granted as not read (blocked_frames.ts writes their lines). A frame
 * whose URL has no site of its own (about:blank, about:srcdoc, data:) is judged by its document's
 * real origin, read in that document (document_origin.ts); an opaque origin ("null") or a
 * document that cannot be scripted has no site, and is read as such a page is; one that does not
 * answer in time is not read.
 */
import { siteOf } from "../../../../protocol/site_permissions.ts";
import type { MethodContext } from "./browser_method.ts";
import {
  BLOCKED_MARK,
  type KeptOut,
  NOT_READ_MARK,
  splitBlocked,
  type UrlFrame,
} from "./blocked_frames.ts";
import { childrenByParent } from "./frame_tree.ts";
import { documentSiteUrl, type OriginReader, readOrigin } from "../document_origin.ts";

/** What the judge needs of the call: the rules and the sites granted for this call. */
export type FrameSiteContext = Pick<MethodContext, "sites" | "siteGrants">;

/**
 * Why a frame at `url` is kept out of a whole-tab read whose top page has site key `topKey`, or
 * undefined when it is read (see the file's comment). A URL with no site is read.
 */
export function keptOutBy(
  context: FrameSiteContext,
  topKey: string | undefined,
): (url: string | undefined) => KeptOut | undefined {
  return (url) => {
    const decision = context.sites.decide(url);
    if (!decision || decision.permission === "auto") return undefined;
    if (decision.permission === "off") return BLOCKED_MARK;
    const { key } = decision.site;
    return key === topKey || context.siteGrants.includes(key) ? undefined : NOT_READ_MARK;
  };
}

/**
 * The frames a whole-tab read of tab `tabId` may touch, and those it keeps out, with why
 * (splitBlocked), each judged by its own site or its document's real origin; `keptOut` judges a
 * URL (a frame element's `src`) the same way, to place the kept-out frames. Frames are judged
 * from the top down, so no origin is read in a frame inside a kept-out one.
 */
export async function splitByFrameSites<F extends UrlFrame & { documentId?: string }>(
  tabId: number,
  all: F[],
  context: FrameSiteContext,
  read: OriginReader = readOrigin,
): Promise<{ frames: F[]; blocked: Map<number, KeptOut>; keptOut: (url: string) => boolean }> {
  const urlOf = (frame: F) => {
    const { frameId, documentId } = frame;
    return documentSiteUrl(
      frame.url,
      documentId ? { tabId, documentId } : { tabId, frameId },
      read,
    );
  };
  const top = all.find((f) => f.frameId === 0);
  const judge = keptOutBy(context, top ? siteOf(await urlOf(top))?.key : undefined);
  const why = new Map<number, KeptOut>();
  const judgeAll = (frames: F[]) =>
    Promise.all(frames.map(async (frame) => {
      // A document whose origin could not be read in time is kept out, never read as siteless.
      const mark: KeptOut | undefined = await urlOf(frame).then(judge, () => NOT_READ_MARK);
      if (mark) why.set(frame.frameId, mark);
    }));
  // From the top's children down (a frame whose parent is not listed starts with them).
  const children = childrenByParent(all);
  const listed = new Set(all.map((f) => f.frameId));
  const seen = new Set([0]);
  let level = [
    ...children.get(0) ?? [],
    ...all.filter((f) => f.parentFrameId >= 0 && !listed.has(f.parentFrameId)),
  ];
  while (level.length > 0) {
    for (const frame of level) seen.add(frame.frameId);
    await judgeAll(level);
    level = level.filter((f) => !why.has(f.frameId))
      .flatMap((f) => children.get(f.frameId) ?? [])
      .filter((f) => !seen.has(f.frameId));
  }
  const split = splitBlocked(all, (frame) => why.get(frame.frameId));
  return { ...split, keptOut: (url) => judge(url) !== undefined };
}
