/**
 * Where trusted input acts on an element: the center of its visible part, in the top-level
 * viewport's CSS pixels (what `Input.dispatchMouseEvent` takes), in any frame.
 *
 * The kit in the element's own document (`dom.point`, page/dom_point.ts) scrolls it into view,
 * measures it and looks at what the browser would hit at its center. For an element inside frames
 * the worker then walks up, one document at a time: the parent's kit finds the `<iframe>` holding
 * the child (by the child's index in its `frames`, which works across origins), scrolls it into
 * view, moves the child's rectangles by the frame's content box, cuts them to what the frame shows
 * and looks at what covers the point there. A frame element covered in its own document, or an
 * element covered in its own, fails with ELEMENT_COVERED naming the covering element, with a ref
 * the agent can act on.
 */
import { clip, quoteClip } from "../../../../protocol/clip.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { parseRef } from "../../../../protocol/browser_methods/refs.ts";
import type { KitArgs } from "../../page/dom_kit_types.ts";
import type { KitRef } from "../../page/dom_refs.ts";
import type { Covering, PointAnswer, PointRect } from "../../page/kit_only_ops.ts";
import type { MethodContext } from "./browser_method.ts";
import { type CallPlace, placeCall } from "./call_place.ts";
import { type PageNavigation, withoutUndefined } from "./dom_call.ts";
import { kitStep, kitStepIn } from "./kit_step.ts";

export interface ElementTarget {
  ref?: string;
  selector?: string;
  frame?: string;
}

export interface PointedElement {
  /** Where to act: the center of the element's visible part, top-level viewport CSS px. */
  x: number;
  y: number;
  /** The element's whole border box, top-level viewport CSS px (may reach past the viewport). */
  box: { x: number; y: number; width: number; height: number };
  /** What today's click answers about the element (tag, text) and its ref. */
  info: Record<string, unknown>;
  /**
   * Whether any of it shows at (x, y): false for an element hidden, empty, scrolled out of view
   * (scroll: false) or clipped away, or one a pointer cannot act on (an `<option>`); x and y are
   * then its box's center, where nothing of it shows.
   */
  shown: boolean;
  /** The element's document, for the kit's `dom.acted` after the action. */
  place: CallPlace;
  /** The element in its document's registry. */
  element?: KitRef;
  /**
   * The tab is not shown (a background tab, a minimized window): Chromium would deliver no mouse
   * input, so `shown` is false too; nothing was scrolled.
   */
  pageHidden: boolean;
}

export interface PointOptions {
  scroll: boolean;
  hitCheck: boolean;
  /** Start the page's navigation watch in the element's document (`dom.acted` ends it). */
  watch?: boolean;
  /** After a scroll, wait until it is drawn (a wheel turn follows). */
  paint?: boolean;
}

/** At most this many frames between an element and the top (deeper nesting is refused). */
const MAX_DEPTH = 16;

/**
 * Scrolls the element into view (scroll: true), finds its point across frames, checks that nothing
 * covers it (hitCheck: ELEMENT_COVERED otherwise). Fails as the DOM tools do for a missing element
 * or a stale ref.
 */
export async function pointAt(
  tabId: number,
  target: ElementTarget,
  context: MethodContext,
  tool: string,
  options: PointOptions,
): Promise<PointedElement> {
  return await context.calls.run(
    tabId,
    tool,
    () => findPoint(tabId, target, context, tool, options),
  );
}

async function findPoint(
  tabId: number,
  target: ElementTarget,
  context: MethodContext,
  tool: string,
  options: PointOptions,
): Promise<PointedElement> {
  const place = await placeCall(tabId, target.ref, target.frame, context);
  const args = withoutUndefined({
    selector: target.ref ? undefined : target.selector,
    ref: place.ref,
    scroll: options.scroll,
    hitCheck: options.hitCheck,
    watch: options.watch,
    paint: options.paint,
  });
  let { answer, token } = await pointIn(tabId, place, args, context);
  const info: Record<string, unknown> = answer.info ?? {};
  const pageHidden = answer.hidden === true;
  const number = typeof info.ref === "string" ? parseRef(info.ref)?.element : undefined;
  const element = number !== undefined && token
    ? { n: number, token, text: info.ref as string }
    : undefined;
  let covering = answer.covering;
  let frameId = await frameIdOf(tabId, place, context);
  const frames = frameId === 0 ? [] : await chrome.webNavigation.getAllFrames({ tabId }) ?? [];
  for (let depth = 0; frameId !== 0; depth++) {
    const frame = frames.find((f) => f.frameId === frameId);
    const parent = frame && frames.find((f) => f.frameId === frame.parentFrameId);
    if (!frame || !parent || answer.frameIndex < 0 || depth >= MAX_DEPTH) {
      throw hubError(
        "TAB_NAVIGATED",
        `The frame of ${what(target)} changed while ${tool} found its place; call again.`,
      );
    }
    const up = await parentPlace(tabId, parent, context);
    const frameArgs = {
      frameIndex: answer.frameIndex,
      inner: { box: answer.box, visible: answer.visible },
      scroll: options.scroll,
      hitCheck: options.hitCheck && !covering,
    };
    ({ answer } = await pointIn(tabId, up, frameArgs, context));
    covering ??= answer.covering;
    frameId = parent.frameId;
  }
  const { box, visible } = answer;
  const shown = visible !== null && !answer.pointless && !pageHidden;
  const spot = visible ?? box;
  const x = round(spot.x + spot.width / 2);
  const y = round(spot.y + spot.height / 2);
  if (covering && shown) throw coveredError(target, covering, x, y);
  return { x, y, box: roundBox(box), info, shown, place, element, pageHidden };
}

/** What `dom.acted` saw after the action: what the page saw, the element's tag and text now. */
export interface Acted {
  navigation?: PageNavigation;
  tag?: string;
  text?: string;
  /** Read before the page saw the click's last release (`ups`): nothing was read, ask again. */
  early?: true;
}

/**
 * After a trusted action on `point`'s element: ends the page's navigation watch and describes the
 * element again (its text as a click's answer reads it, or innerText for a hover's). Undefined
 * when its document is gone or did not answer: the action navigated it, or it is busy. With
 * `ups`, `early` until the page saw that many trusted mouseups (ActedArgs.ups).
 */
export async function actedOn(
  tabId: number,
  point: PointedElement,
  context: MethodContext,
  tool: string,
  text: "content" | "inner",
  ups?: number,
): Promise<Acted | undefined> {
  const args = { ref: point.element, text, ups };
  try {
    const value = await context.calls.run(
      tabId,
      tool,
      () => kitStep(tabId, point.place, "dom.acted", args, context),
    );
    return value as Acted;
  } catch {
    return undefined;
  }
}

/** The most characters of the covering element's page text quoted in ELEMENT_COVERED. */
export const COVERING_QUOTE_CHARS = 80;

/**
 * The ELEMENT_COVERED failure (docs/browser_tools.md "Trusted input"). The covering element's
 * text is the page's: line breaks folded, cut to COVERING_QUOTE_CHARS and JSON-quoted, and its tag
 * kept to name characters, so the page cannot close the quote and go on in hub's voice (a fake
 * ref); `details.covering` keeps tag, role, name and ref as they were.
 */
export function coveredError(target: ElementTarget, covering: Covering, x: number, y: number) {
  const named = covering.role ? `${covering.role} ` : "";
  const folded = (covering.name ?? "").replace(/[\r\n\u0085\u2028\u2029]+/g, " ");
  const text = folded ? ` ${JSON.stringify(clip(folded, COVERING_QUOTE_CHARS))}` : "";
  const ref = covering.ref ? ` (ref ${covering.ref})` : "";
  return hubError(
    "ELEMENT_COVERED",
    `${what(target)} is covered by ${named}<${covering.tag.replace(/[^\w-]/g, "")}>${text}` +
      `${ref} at (${x}, ${y}). ` +
      "Close or scroll away the covering element (e.g. a cookie banner), or act on it instead.",
    { covering },
  );
}

/**
 * `point`, which must show at a point (a tool without a DOM path: browser_drag); otherwise
 * ELEMENT_NOT_FOUND saying why nothing can be reached.
 */
export function shownPoint(
  tabId: number,
  point: PointedElement,
  target: ElementTarget,
): PointedElement {
  if (point.pageHidden) throw hiddenTabError(tabId);
  if (point.shown) return point;
  throw hubError(
    "ELEMENT_NOT_FOUND",
    `${what(target)} is on the page but shows nothing a pointer can reach (hidden, empty, ` +
      "clipped away, or an <option>). Check it with browser_snapshot or browser_query_elements.",
  );
}

/** TAB_HIDDEN: Chromium delivers no mouse input to a tab it does not show. */
export function hiddenTabError(tabId: number) {
  return hubError(
    "TAB_HIDDEN",
    `Tab ${tabId} is not shown (a background tab, or its window is minimized), and Chromium ` +
      "delivers no mouse input to a tab it does not show. Bring it to the front with " +
      "browser_focus_tab, then call again.",
  );
}

/**
 * Fails with TAB_HIDDEN when the tab's page is not shown (for input at a point, which has no
 * element to ask); a page hub cannot script is left to the debugger's own answer.
 */
export async function assertTabShown(tabId: number): Promise<void> {
  const state = await chrome.scripting.executeScript({
    target: { tabId },
    func: () => document.visibilityState,
  }).then((frames) => frames[0]?.result, () => undefined);
  if (state === "hidden") throw hiddenTabError(tabId);
}

/** How messages name the target: `ref "e12"` or the quoted selector (in its frame). */
function what(target: ElementTarget): string {
  if (target.ref) return `ref "${target.ref}"`;
  const frame = target.frame ? ` in frame ${quoteClip(target.frame)}` : "";
  return `${quoteClip(target.selector ?? "")}${frame}`;
}

/** Runs `dom.point` in `place`, recording the document's registry (the refs it hands out). */
async function pointIn(
  tabId: number,
  place: CallPlace,
  args: KitArgs<"dom.point">,
  context: MethodContext,
): Promise<{ answer: PointAnswer; token?: string }> {
  const { value, token } = await kitStepIn(tabId, place, "dom.point", args, context);
  return { answer: value as unknown as PointAnswer, token };
}

/** The frameId of the element's document. */
async function frameIdOf(tabId: number, place: CallPlace, { refFrames }: MethodContext) {
  if (place.k === undefined) {
    const ids = (place.target as { frameIds?: number[] }).frameIds;
    return ids?.[0] ?? 0;
  }
  if (place.k === 0) return 0;
  const entry = await refFrames.docOf(tabId, place.k);
  if (!entry) throw hubError("REF_STALE", `The frame of ${place.named ?? "the element"} is gone.`);
  return entry.frameId;
}

/** A parent frame's document as a call place, with its ref scheme (for a covering's ref). */
async function parentPlace(
  tabId: number,
  parent: chrome.webNavigation.GetAllFrameResultDetails,
  { refFrames }: MethodContext,
): Promise<CallPlace> {
  const documentId = (parent as { documentId?: string }).documentId;
  if (!documentId) return { target: { tabId, frameIds: [parent.frameId] }, gone: "frame" };
  const { k, scheme } = await refFrames.schemeFor(tabId, parent.frameId, documentId);
  return { target: { tabId, documentIds: [documentId] }, k, documentId, scheme, gone: "frame" };
}

const round = (n: number) => Math.round(n * 100) / 100;

function roundBox(box: PointRect) {
  return { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) };
}
