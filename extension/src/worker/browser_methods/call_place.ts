/**
 * Where a DOM call runs (docs/decisions/063-refs-across-frames.md): a `ref` in its own document
 * (Chrome refuses one that is gone: REF_STALE), `frame` in that frame's current document, neither
 * in the tab's current top document; each with that document's ref scheme from the tab's frame
 * table (ref_frames.ts). And what Chrome refusing that document means for the call (`goneError`).
 *
 * A call placed in a child frame's document follows that frame's own site
 * (docs/decisions/072-site-permissions.md): its URL is checked with `checkFrameSite` before the call
 * runs there (SITE_NOT_ALLOWED, SITE_ASK), and its origin is what the call answers. The top document
 * passed the site gate already.
 */
import { quoteClip } from "../../../../protocol/clip.ts";
import { type HubError, hubError } from "../../../../protocol/errors.ts";
import {
  frameRef,
  isFrameRef,
  parseRef,
  refPrefix,
  staleRefMessage,
} from "../../../../protocol/browser_methods/refs.ts";
import type { KitRef, RefScheme } from "../../page/dom_refs.ts";
import { isDocumentGone } from "../chrome_errors.ts";
import { siteOf } from "../../../../protocol/site_permissions.ts";
import { chromeFrameLookups, type FrameLookups, resolveFramePlace } from "./frame_target.ts";
import type { MethodContext } from "./browser_method.ts";
import type { RefFrames } from "./ref_frames.ts";
import { checkFrameSite } from "../site_gate.ts";
import { documentSiteUrl } from "../document_origin.ts";

/** Where a DOM call runs: the document, how its kit writes refs, and the ref it acts on. */
export interface CallPlace {
  target: chrome.scripting.InjectionTarget;
  /** The document's `k` in the tab's frame table, when the call runs in a known document. */
  k?: number;
  documentId?: string;
  scheme?: RefScheme;
  /** The `ref` of the input, for the kit of its document. */
  ref?: KitRef;
  /**
   * What Chrome refusing the document (it is gone) means: `stale` (a ref's document: REF_STALE),
   * `frame` (a frame selector's document navigated: TAB_NAVIGATED), `top` (the top document
   * changed between the lookup and the call: look again).
   */
  gone: "stale" | "frame" | "top";
  /** The ref or frame the agent wrote, for messages. */
  named?: string;
}

/**
 * What placing a call takes of its context: the tab's frame tables, the site rules a child frame's
 * document must pass, and where the call notes the origin of the frame it runs in.
 */
export type PlaceContext =
  & Pick<MethodContext, "refFrames" | "sites" | "siteGrants" | "frameSite">
  & Partial<Pick<MethodContext, "siteUses">>;

/**
 * Where a call with `ref` and `frame` (either may be absent) runs in tab `tabId`: a ref in its
 * own document (a frame's ref `f<k>` as an element: its `<iframe>` in the parent document), a
 * `frame` in that frame's current document, else the tab's top document. A ref with a `frame`
 * that names another frame is INVALID_ARGUMENTS; a ref the frame table no longer holds REF_STALE.
 * A child frame's document whose site is `off` (or `ask`, not granted) refuses the call.
 */
export async function placeCall(
  tabId: number,
  ref: string | undefined,
  frame: string | undefined,
  context: PlaceContext,
  lookups: FrameLookups = chromeFrameLookups(context.refFrames),
): Promise<CallPlace> {
  const { refFrames } = context;
  if (ref !== undefined) return await placeRef(tabId, ref, frame, context);
  if (frame === undefined) return await placeTop(tabId, refFrames);
  const found = await resolveFramePlace(tabId, frame, lookups);
  const gone = isFrameRef(frame) && lookups.byRef ? "stale" : "frame";
  const documentId = found.documentId ??
    (found.frameId === undefined ? undefined : await documentOf(tabId, found.frameId));
  await checkFrameDocument(tabId, { ...found, documentId }, context);
  if (documentId === undefined || found.frameId === undefined) {
    return { target: found.target, gone, named: frame };
  }
  const { k, scheme } = await refFrames.schemeFor(tabId, found.frameId, documentId);
  return {
    target: { tabId, documentIds: [documentId] },
    k,
    documentId,
    scheme,
    gone,
    named: frame,
  };
}

/** Most `<iframe>` owners followed for a frame's ref used as an element (frames nested deeper). */
const OWNER_HOPS = 32;

async function placeRef(
  tabId: number,
  text: string,
  frame: string | undefined,
  context: PlaceContext,
): Promise<CallPlace> {
  const { refFrames } = context;
  const parsed = parseRef(text);
  if (!parsed) throw hubError("REF_STALE", staleRefMessage(text));
  if (frame !== undefined && (parsed.frame === 0 || frame !== frameRef(parsed.frame))) {
    throw hubError(
      "INVALID_ARGUMENTS",
      `Pass ref ${quoteClip(text)} without frame ${quoteClip(frame)}: a ref already names its ` +
        "frame (frame may only repeat it, as its f<k> part).",
    );
  }
  let { frame: k, element: n } = parsed;
  let entry = await refFrames.docOf(tabId, k);
  // A frame's ref as an element: its <iframe>, in the parent document (at any depth).
  for (let hop = 0; n === undefined && hop < OWNER_HOPS; hop++) {
    const owner = entry?.owner ? parseRef(entry.owner) : undefined;
    if (!owner) break;
    ({ frame: k, element: n } = owner);
    entry = await refFrames.docOf(tabId, k);
  }
  if (n === undefined || !entry?.token) throw hubError("REF_STALE", staleRefMessage(text));
  const { documentId, token, base } = entry;
  if (k !== 0) await checkFrameDocument(tabId, entry, context);
  return {
    target: { tabId, documentIds: [documentId] },
    k,
    documentId,
    scheme: { prefix: refPrefix(k), base },
    ref: { n, token, text },
    gone: "stale",
    named: text,
  };
}

/**
 * The tab's top document, looked up before the call (one `webNavigation.getFrame`): its scheme
 * must be known before the kit hands out refs, because a new top document numbers from its base.
 */
async function placeTop(tabId: number, refFrames: RefFrames): Promise<CallPlace> {
  const documentId = await documentOf(tabId, 0);
  if (documentId === undefined) {
    // No document to name (cannot happen in Chrome ≥ 106): as before refs, the tab's top frame,
    // numbered above what the table holds, nothing recorded.
    const top = await refFrames.docOf(tabId, 0);
    return { target: { tabId }, scheme: { prefix: "", base: (top?.upTo ?? 0) + 1 }, gone: "top" };
  }
  const { k, scheme } = await refFrames.schemeFor(tabId, 0, documentId);
  return { target: { tabId, documentIds: [documentId] }, k, documentId, scheme, gone: "top" };
}

/**
 * Refuses a call in a child frame's document by that frame's own site (`checkFrameSite`), and
 * notes the frame's origin as where the call ran. The URL is the lookup's, else Chrome's for the
 * document; a document Chrome no longer knows has none (the call then fails as gone). A URL with
 * no site of its own (about:srcdoc, about:blank) is decided by the document's real origin
 * (document_origin.ts).
 */
async function checkFrameDocument(
  tabId: number,
  where: { frameId?: number; documentId?: string; url?: string },
  context: PlaceContext,
): Promise<void> {
  if (where.frameId === 0) return;
  const shown = where.url ?? await frameUrl(tabId, where);
  // about:blank / about:srcdoc / data: frames: decided by the document's real origin.
  const known = where.documentId !== undefined || where.frameId !== undefined;
  const url = known ? await documentSiteUrl(shown, { tabId, ...where }) : shown;
  checkFrameSite(url, context);
  const origin = siteOf(url)?.origin;
  if (origin !== undefined && context.frameSite) context.frameSite.origin = origin;
}

/** The URL Chrome has for a frame's document (or the frame, without one). */
async function frameUrl(
  tabId: number,
  where: { frameId?: number; documentId?: string },
): Promise<string | undefined> {
  const details = where.documentId !== undefined
    ? { tabId, documentId: where.documentId }
    : where.frameId !== undefined
    ? { tabId, frameId: where.frameId }
    : undefined;
  if (!details) return undefined;
  try {
    return (await chrome.webNavigation.getFrame(details))?.url ?? undefined;
  } catch {
    return undefined;
  }
}

/** The documentId of frame `frameId` of the tab, or undefined when Chrome gives none. */
async function documentOf(tabId: number, frameId: number): Promise<string | undefined> {
  try {
    return (await chrome.webNavigation.getFrame({ tabId, frameId }))?.documentId ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Chrome refusing a document that is gone: a ref's document (or a frame's by ref) as REF_STALE, a
 * frame selector's document (it navigated) as TAB_NAVIGATED; any other error as it is.
 */
export function goneError(place: Pick<CallPlace, "gone" | "named">, error: unknown): unknown {
  return isDocumentGone(error) ? goneErrorOf(place) : error;
}

/** The error of a call whose document is gone, by how the call named it (see `goneError`). */
export function goneErrorOf(place: Pick<CallPlace, "gone" | "named">): HubError {
  if (place.gone === "stale") return hubError("REF_STALE", staleRefMessage(place.named ?? ""));
  const what = place.gone === "frame" ? `The frame ${quoteClip(place.named ?? "")}` : "The tab";
  return hubError(
    "TAB_NAVIGATED",
    `${what} loaded another page while the call ran; call again to act on it.`,
  );
}
