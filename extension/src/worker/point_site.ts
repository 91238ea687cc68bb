/**
 * Input at a point (browser_click_at, browser_move_mouse, browser_drag by coordinates) lands in
 * whatever document is under that point, which may be a cross-origin frame of a site the person
 * turned `off` (docs/decisions/072-site-permissions.md). The site gate asks here which frame is
 * under each point, and refuses the call by that frame's own site (`checkFrameSite`).
 *
 * A tab none of whose frames would be refused costs one `webNavigation.getAllFrames`. Otherwise
 * the point is followed down from the top document: the element under it (through open shadow
 * roots); an `<iframe>` there is matched to its frame by its index in `window.frames`, checked,
 * and the point carried into it. A frame hub cannot match (an iframe inside a shadow root, a
 * frame that does not answer) refuses the call when any frame it could be is refused: hub does
 * not guess in the page's favour.
 */
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

/** Throws SITE_NOT_ALLOWED / SITE_ASK when a point of `points` lies over a refused frame. */
export async function checkPointSites(
  tabId: number,
  points: Point[],
  refusal: Refusal,
): Promise<void> {
  if (points.length === 0) return;
  const frames = await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) ?? [];
  if (!frames.some((f) => f.frameId !== 0 && refusal(f.url) !== undefined)) return;
  for (const point of points) await followPoint(tabId, frames, point, refusal);
}

async function followPoint(tabId: number, frames: Frame[], start: Point, refusal: Refusal) {
  let frameId = 0;
  let point = start;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const children = frames.filter((f) => f.parentFrameId === frameId && f.frameId !== frameId);
    const anyRefused = () => {
      const error = [...descendants(frames, frameId)].map((f) => refusal(f.url))
        .find((e) => e !== undefined);
      if (error) throw error;
    };
    if (children.length === 0) return;
    if (depth === MAX_DEPTH) return anyRefused();
    const hit = await frameAt(tabId, frameId, point);
    if (hit === null) return;
    const child = hit && await childAt(tabId, children, hit.index);
    if (!hit || !child) return anyRefused();
    const error = refusal(child.url);
    if (error) throw error;
    frameId = child.frameId;
    point = { x: hit.x, y: hit.y };
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

/**
 * What is under `point` in frame `frameId`: null when it is no frame, undefined when the document
 * could not be asked.
 */
async function frameAt(
  tabId: number,
  frameId: number,
  point: Point,
): Promise<FrameHit | null | undefined> {
  try {
    const [answer] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [frameId] },
      func: frameAtPoint,
      args: [point.x, point.y],
    });
    return answer?.result as FrameHit | null | undefined;
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
