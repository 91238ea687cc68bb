/**
 * The `frame` parameter of the selector tools: which document of a tab a DOM method runs in.
 * Without `frame`, the top document (`{ tabId }`, as always). With a CSS selector of an `<iframe>`
 * or `<frame>` of the top document, that frame's current document, same- or cross-origin:
 *
 * 1. the kit in the top document finds the element and its index in `window.frames`
 *    (`frameIndexOf`, page/dom_frames.ts);
 * 2. each child frame of the top document (webNavigation.getAllFrames) tells its own index in its
 *    parent (`parent[i] === window` is allowed across origins), the way browser_get_page_text
 *    places frames (`inFrames`, frame_scripting.ts: a frame late to answer is left out, so one
 *    hung frame does not hold the call);
 * 3. the method runs with `target: { tabId, documentIds: [documentId] }`, so a frame that
 *    navigated in between is refused by Chrome rather than read.
 *
 * A frame's ref (`f1`, from browser_snapshot or a ref browser_query_elements gave inside that
 * frame) resolves through the tab's frame table instead (ref_frames.ts): `resolveFrame` takes that
 * lookup as `byRef` and uses it for any `frame` that is a ref; a ref the table no longer holds is
 * REF_STALE.
 */
import { hubError, type HubErrorCode } from "../../../../protocol/errors.ts";
import {
  isFrameRef,
  parseRef,
  staleRefMessage,
} from "../../../../protocol/browser_methods/refs.ts";
import { DOM_KIT_FILE, DOM_KIT_GLOBAL, DOM_KIT_VERSION } from "../../page/dom_kit_types.ts";
import type { KitOutcome } from "../../page/dom_kit_types.ts";
import { callWithKit, firstResult } from "./browser_method.ts";
import { FRAME_ANSWER_MS, inFrames } from "./frame_scripting.ts";
import type { RefFrames } from "./ref_frames.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;
type Target = chrome.scripting.InjectionTarget;

/** Where the `<iframe>` a frame selector matched sits in the top document's `window.frames`. */
interface FrameElement {
  /** Its index in `window.frames`; -1 when it has none (inside a shadow root, no document yet). */
  index: number;
  tag: string;
}

/** What `resolveFrame` asks the browser; chrome-backed in the extension, fake in unit tests. */
export interface FrameLookups {
  /** The kit's answer for `selector` in the top document (a failure names the selector). */
  findElement(tabId: number, selector: string): Promise<KitOutcome>;
  /** The tab's frames. */
  frames(tabId: number): Promise<Frame[]>;
  /**
   * Each of `frameIds` answers its index in its parent's `frames` (unscriptable ones, and ones
   * that do not answer within FRAME_ANSWER_MS, are absent).
   */
  indexes(tabId: number, frameIds: number[]): Promise<Map<number, number>>;
  /** A frame's ref resolved through the tab's frame table (REF_STALE when it holds none). */
  byRef?(tabId: number, ref: string): Promise<FramePlace>;
}

/** Where a `frame` leads: the scripting target, and its frame and document when known. */
export interface FramePlace {
  target: Target;
  frameId?: number;
  documentId?: string;
  /** The frame's URL, when the lookup gave it (for its site: site_gate.ts `checkFrameSite`). */
  url?: string;
}

/** The scripting target for `frame` in tab `tabId`, or `{ tabId }` without one. */
export async function resolveFrame(
  tabId: number,
  frame: string | undefined,
  lookups: FrameLookups,
): Promise<Target> {
  return (await resolveFramePlace(tabId, frame, lookups)).target;
}

/** `resolveFrame` with the frame and document it found (for the frame's ref scheme). */
export async function resolveFramePlace(
  tabId: number,
  frame: string | undefined,
  lookups: FrameLookups,
): Promise<FramePlace> {
  if (frame === undefined) return { target: { tabId } };
  if (isFrameRef(frame) && lookups.byRef) return await lookups.byRef(tabId, frame);
  const found = await lookups.findElement(tabId, frame);
  if (!found.ok) throw hubError(found.error.code as HubErrorCode, found.error.message);
  const { index, tag } = found.value as unknown as FrameElement;
  if (index < 0) {
    throw hubError(
      "ELEMENT_NOT_FOUND",
      `frame "${frame}" matches an <${tag}> that holds no frame hub can place (it has no ` +
        "document yet, or it sits inside a shadow root, where the top document does not list " +
        "its frame). Select an <iframe> of the top document.",
    );
  }
  const children = (await lookups.frames(tabId)).filter((f) =>
    f.parentFrameId === 0 && f.frameId !== 0
  );
  const indexes = await lookups.indexes(tabId, children.map((f) => f.frameId));
  const child = children.find((f) => indexes.get(f.frameId) === index);
  if (!child) {
    throw hubError(
      "PAGE_NOT_SCRIPTABLE",
      `The document in frame "${frame}" cannot be scripted: Chromium keeps extensions out of ` +
        "it (a chrome:// or Web Store page, or a page the extension has no access to), or it " +
        `did not answer within ${FRAME_ANSWER_MS / 1000} s (a page busy running a script).`,
    );
  }
  const { frameId, documentId, url } = child;
  return documentId
    ? { target: { tabId, documentIds: [documentId] }, frameId, documentId, url }
    : { target: { tabId, frameIds: [frameId] }, frameId, url };
}

/**
 * Runs in the top document's isolated world; self-contained (serialized by chrome.scripting):
 * the kit's `frameIndexOf`, or KIT_MISSING when the kit is not there (yet).
 */
function callFrameIndexOf(name: string, version: string, selector: string): KitOutcome {
  const kit = Reflect.get(globalThis, name) as
    | { version?: string; frameIndexOf?: (selector: string) => KitOutcome }
    | undefined;
  if (kit?.version !== version || typeof kit.frameIndexOf !== "function") {
    return { ok: false, error: { code: "KIT_MISSING", message: "" } };
  }
  return kit.frameIndexOf(selector);
}

/** Runs in a frame; self-contained: its index in its parent's `frames`, -1 when not listed. */
function ownIndex(): number {
  const here = globalThis as unknown as Window;
  try {
    for (let i = 0; i < here.parent.length; i++) if (here.parent[i] === here) return i;
  } catch { /* not listed */ }
  return -1;
}

/** The lookups through chrome.scripting and chrome.webNavigation (no frame refs). */
export const CHROME_FRAME_LOOKUPS: FrameLookups = {
  async findElement(tabId, selector) {
    const target = { tabId, frameIds: [0] };
    const call = async () =>
      firstResult<KitOutcome>(
        await chrome.scripting.executeScript({
          target,
          func: callFrameIndexOf,
          args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, selector],
        }),
      );
    const outcome = await callWithKit(target, call);
    if (outcome.ok || outcome.error.code !== "KIT_MISSING") return outcome;
    const message = `The page helper ${DOM_KIT_FILE} could not be installed in the tab.`;
    return { ok: false, error: { code: "EXTENSION_ERROR", message } };
  },
  async frames(tabId) {
    return await chrome.webNavigation.getAllFrames({ tabId }) ?? [];
  },
  async indexes(tabId, frameIds) {
    if (frameIds.length === 0) return new Map();
    return await inFrames(
      tabId,
      frameIds,
      (target) =>
        chrome.scripting.executeScript({ target, func: ownIndex }) as Promise<
          chrome.scripting.InjectionResult<number>[]
        >,
    );
  },
};

/** CHROME_FRAME_LOOKUPS, with a frame's ref resolved through the tabs' frame tables `refFrames`. */
export function chromeFrameLookups(refFrames: RefFrames): FrameLookups {
  return {
    ...CHROME_FRAME_LOOKUPS,
    async byRef(tabId, ref) {
      const entry = await refFrames.docOf(tabId, parseRef(ref)?.frame ?? -1);
      if (!entry) throw hubError("REF_STALE", staleRefMessage(ref));
      const { frameId, documentId } = entry;
      return { target: { tabId, documentIds: [documentId] }, frameId, documentId };
    },
  };
}
