/**
 * Input that lands wherever the page puts it: at a point (browser_click_at, browser_move_mouse,
 * browser_drag by coordinates) or into the focused element (browser_press_key, browser_type_text
 * without a ref or selector). Either may reach a cross-origin frame of a site the person turned
 * `off` or did not allow (docs/decisions/072-site-permissions.md), so the site gate and the key
 * methods ask here where the input goes, and refuse by that frame's own site (`frameRefusal`).
 *
 * - A tab none of whose frames would be refused costs one `webNavigation.getAllFrames`.
 * - Points on a tab that embeds an `off` frame anywhere are refused outright: the page can move
 *   its frames (a z-index flip, a transform) between the check and the press, so "the frame under
 *   the point" cannot be trusted there; a ref-based click can (its element is checked).
 * - Otherwise (frames that would ask) each point, and the focus, is followed down from the top
 *   document: the element under the point or the focused element (through open shadow roots); an
 *   `<iframe>` there is matched to its frame by its index in `window.frames`, checked, and
 *   followed into. A frame hub cannot match (an iframe inside a shadow root, a frame that does not
 *   answer) refuses the call when any frame it could be is refused: hub does not guess in the
 *   page's favour.
 */
import { HubError, hubError } from "../../../protocol/errors.ts";
import { documentSiteUrl } from "./document_origin.ts";
import { CHROME_FRAME_LOOKUPS } from "./browser_methods/frame_target.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;
/** The error refusing a call in a frame at `url` by its site, or undefined (site_gate.ts). */
type Refusal = (url: string) => Error | undefined;

export interface Point {
  x: number;
  y: number;
}

/** The `<iframe>` under a point of one document: its index in `window.frames`, the point inside. */
interface FrameHit {
  index: number;
  x: number;
  y: number;
}

/** Frames nested deeper than this are not followed (the call is refused if one could be off). */
const MAX_DEPTH = 8;

/** The points of a coordinate input: `x`/`y`, and browser_drag's `fromX`/`fromY`, `toX`/`toY`. */
export function pointsOf(input: unknown): Point[] {
  const given = input as Record<string, unknown>;
  const pairs = [["x", "y"], ["fromX", "fromY"], ["toX", "toY"]];
  return pairs.flatMap(([x, y]) =>
    typeof given?.[x] === "number" && typeof given?.[y] === "number"
      ? [{ x: given[x] as number, y: given[y] as number }]
      : []
  );
}

/**
 * Throws SITE_NOT_ALLOWED when the tab embeds an `off` frame (see the header), and SITE_NOT_ALLOWED
 * / SITE_ASK when a point of `points` lies over a refused frame.
 */
export async function checkPointSites(
  tabId: number,
  points: Point[],
  refusal: Refusal,
): Promise<void> {
  if (points.length === 0) return;
  const frames = await refusedFrames(tabId, refusal);
  if (!frames) return;
  const off = frames.map((f) => f.frameId === 0 ? undefined : refusal(f.url))
    .find((e) => e instanceof HubError && e.payload.code === "SITE_NOT_ALLOWED");
  if (off) throw pointsUntrusted(off as HubError);
  for (const start of points) {
    let point = start;
    await follow(tabId, frames, refusal, async (frameId) => {
      const hit = await inFrame(tabId, frameId, frameAtPoint, [point.x, point.y]);
      if (hit) point = { x: hit.x, y: hit.y };
      return hit && hit.index;
    });
  }
}

/**
 * Throws SITE_NOT_ALLOWED / SITE_ASK when the focused element, followed from the top document
 * down through focused frames, is inside a refused frame: where keys sent without a target go.
 */
export async function checkFocusSites(tabId: number, refusal: Refusal): Promise<void> {
  const frames = await refusedFrames(tabId, refusal);
  if (!frames) return;
  await follow(tabId, frames, refusal, (frameId) => inFrame(tabId, frameId, focusedFrame, []));
}

/**
 * The tab's frames when one of them (not the top) would be refused, else undefined. A frame whose
 * URL has no site (about:blank, srcdoc, data:) carries its document's real origin as its `url`
 * (document_origin.ts), so an off site's own blank frame is its site's.
 */
async function refusedFrames(tabId: number, refusal: Refusal): Promise<Frame[] | undefined> {
  const listed = await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) ?? [];
  const frames = await Promise.all(listed.map(async (f) => {
    if (f.frameId === 0) return f;
    const at = { tabId, frameId: f.frameId, documentId: f.documentId };
    return { ...f, url: await documentSiteUrl(f.url, at) ?? f.url };
  }));
  return frames.some((f) => f.frameId !== 0 && refusal(f.url) !== undefined) ? frames : undefined;
}

/** SITE_NOT_ALLOWED for input at a point on a tab that embeds the off frame `off` refused. */
function pointsUntrusted(off: HubError): HubError {
  const { site, pattern } = off.payload.details as { site: string; pattern?: string };
  const rule = pattern === undefined ? "the default for sites without a rule" : `rule "${pattern}"`;
  const fix = off.message.indexOf("A person can allow");
  return hubError(
    "SITE_NOT_ALLOWED",
    `This page embeds a frame of ${site}, whose browser tools are off (${rule}), and a page can ` +
      "move its frames under a point between hub's check and the input, so hub did nothing at " +
      "coordinates in this tab. Use a ref instead (browser_snapshot, then browser_click_element " +
      "with the ref)." + (fix < 0 ? "" : ` ${off.message.slice(fix)}`),
    off.payload.details,
  );
}

/**
 * Follows the input down from the top document: `step` answers the index in `window.frames` of
 * the child frame the input goes into in frame `frameId` (null: into no frame; undefined or -1:
 * a frame hub cannot tell). Throws the refusal of a frame it goes into, or of any frame it could.
 */
async function follow(
  tabId: number,
  frames: Frame[],
  refusal: Refusal,
  step: (frameId: number) => Promise<number | null | undefined>,
) {
  let frameId = 0;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const children = frames.filter((f) => f.parentFrameId === frameId && f.frameId !== frameId);
    const anyRefused = () => {
      const error = [...descendants(frames, frameId)].map((f) => refusal(f.url))
        .find((e) => e !== undefined);
      if (error) throw error;
    };
    if (children.length === 0) return;
    if (depth === MAX_DEPTH) return anyRefused();
    const index = await step(frameId);
    if (index === null) return;
    const child = index !== undefined && await childAt(tabId, children, index);
    if (!child) return anyRefused();
    const error = refusal(child.url);
    if (error) throw error;
    frameId = child.frameId;
  }
}

/** Every frame below `frameId`. */
function* descendants(frames: Frame[], frameId: number): Generator<Frame> {
  for (const frame of frames) {
    if (frame.parentFrameId !== frameId || frame.frameId === frameId) continue;
    yield frame;
    yield* descendants(frames, frame.frameId);
  }
}

/** The child frame at `index` of its parent's `window.frames`, when one answers so. */
async function childAt(tabId: number, children: Frame[], index: number) {
  if (index < 0) return undefined;
  const indexes = await CHROME_FRAME_LOOKUPS.indexes(tabId, children.map((f) => f.frameId));
  return children.find((f) => indexes.get(f.frameId) === index);
}

/** `func` run in frame `frameId`; undefined when the document could not be asked. */
async function inFrame<T, A extends unknown[]>(
  tabId: number,
  frameId: number,
  func: (...args: A) => T,
  args: A,
): Promise<T | undefined> {
  try {
    const [answer] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [frameId] },
      func,
      args,
    });
    return answer?.result as T | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs in a document; self-contained (serialized by chrome.scripting): the `<iframe>` or
 * `<frame>` under (x, y), through open shadow roots, as its index in `window.frames` (-1 when not
 * listed there) and the point in its own viewport; null when the point is over no frame.
 */
export function frameAtPoint(x: number, y: number): FrameHit | null {
  let element = document.elementFromPoint(x, y);
  while (element?.shadowRoot) {
    const inner = element.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === element) break;
    element = inner;
  }
  const tag = element?.tagName;
  if (!element || (tag !== "IFRAME" && tag !== "FRAME")) return null;
  const owner = element as HTMLIFrameElement;
  const here = globalThis as unknown as Window;
  let index = -1;
  for (let i = 0; i < here.frames.length; i++) {
    if (here.frames[i] === owner.contentWindow) index = i;
  }
  const box = owner.getBoundingClientRect();
  const style = getComputedStyle(owner);
  return {
    index,
    x: x - box.left - owner.clientLeft - parseFloat(style.paddingLeft || "0"),
    y: y - box.top - owner.clientTop - parseFloat(style.paddingTop || "0"),
  };
}

/**
 * Runs in a document; self-contained (serialized by chrome.scripting): when the focused element
 * (through open shadow roots) is an `<iframe>` or `<frame>`, its index in `window.frames` (-1 when
 * not listed there); null when the focus is not on a frame.
 */
export function focusedFrame(): number | null {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  const tag = element?.tagName;
  if (!element || (tag !== "IFRAME" && tag !== "FRAME")) return null;
  const owner = element as HTMLIFrameElement;
  const here = globalThis as unknown as Window;
  for (let i = 0; i < here.frames.length; i++) {
    if (here.frames[i] === owner.contentWindow) return i;
  }
  return -1;
}
