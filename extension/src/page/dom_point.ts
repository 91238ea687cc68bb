/**
 * Where trusted input acts on an element (the kit-only operations `dom.point` and `dom.acted`,
 * kit_only_ops.ts). `dom.point` scrolls the element into view when asked, measures its border box
 * and the part of it a person sees (clipped by the viewport and by the scroll boxes around it), and
 * looks at what the browser would hit at that part's center: the element (or something inside it,
 * or a `<label>` of it), or another element covering it, which it describes (with a ref, so the
 * agent can act on it instead). Called with `frameIndex` instead of an element, it does the same
 * for the `<iframe>` that holds child frame `frameIndex` of this window, carrying the child's
 * answer (`inner`) into this document's viewport: the worker walks up from the element's frame to
 * the top this way (extension/src/worker/browser_methods/element_point.ts). With `watch`, it also
 * starts watching for what may start a navigation while the worker sends the events; `dom.acted`
 * ends that watch and describes the element after the action.
 */
import { clip, fail, findTarget, tagOf } from "./dom_find.ts";
import type { KitState } from "./dom_kit_types.ts";
import type { ActedArgs, Covering, PointAnswer, PointArgs, PointRect } from "./kit_only_ops.ts";
import { composedParent } from "./dom_deep.ts";
import { boxState, checkScrollable } from "./dom_scroll_box.ts";
import { windowIndex } from "./dom_frames.ts";
import { nameOf, roleOf } from "./dom_roles.ts";

const CENTER = { block: "center", inline: "center", behavior: "instant" } as const;

/** Tags a pointer cannot act on at a point: trusted input leaves them to the DOM path. */
const POINTLESS = new Set(["option", "optgroup", "area"]);

/** `dom.point`: see the file's comment. */
export async function pointElement(args: PointArgs, state: KitState): Promise<PointAnswer> {
  const here = globalThis as unknown as Window;
  let frameIndex = -1;
  try {
    frameIndex = here.parent === here ? -1 : windowIndex(here.parent, here);
  } catch { /* a parent we may not read: -1 */ }
  if (args.frameIndex !== undefined) return await pointFrame(args, frameIndex, state);
  const element = findTarget(args, state.refs);
  const info = {
    tag: tagOf(element),
    text: contentText(element),
    ref: state.refs.refOf(element, state.scheme),
    // Whether a press on it may start an HTML5 drag (a drag waits for one only then).
    draggable: (element as Partial<HTMLElement>).draggable === true ||
      element.closest('[draggable="true"]') !== null,
  };
  if (POINTLESS.has(info.tag)) {
    return { box: boxOf(element), visible: null, frameIndex, info, pointless: true };
  }
  if (document.visibilityState === "hidden") {
    return { box: boxOf(element), visible: visiblePart(element), frameIndex, info, hidden: true };
  }
  let scrolled = false;
  if (args.scroll && !allShows(element)) {
    element.scrollIntoView(CENTER);
    scrolled = true;
  }
  let visible = visiblePart(element);
  let covering = args.hitCheck && visible ? coveringAt(center(visible), element) : undefined;
  // Something lies over it where it is (a sticky header, a banner at the bottom): the middle of
  // the view may be clear.
  if (covering && args.scroll && !scrolled) {
    element.scrollIntoView(CENTER);
    visible = visiblePart(element);
    covering = visible ? coveringAt(center(visible), element) : undefined;
    scrolled = true;
  }
  // A checkbox or radio drawn by the page (the input itself hidden under its styled box, or
  // made tiny) is clicked as a person clicks it: on a label of it that shows.
  if (args.hitCheck && (covering || !visible) && isToggle(element)) {
    const label = shownLabel(element as HTMLInputElement);
    if (label) ({ visible, covering } = { visible: label, covering: undefined });
  }
  if (scrolled && (frameIndex >= 0 || args.paint)) await painted();
  const answer: PointAnswer = { box: boxOf(element), visible, frameIndex, info };
  if (covering) answer.covering = described(covering, state);
  // Only an element the worker will act on gets the watch; dom.acted ends it.
  if (args.watch && visible && !answer.covering) startWatch(state);
  return answer;
}

/** The frame element's part of `dom.point`: the child's answer moved into this viewport. */
async function pointFrame(
  args: PointArgs,
  frameIndex: number,
  state: KitState,
): Promise<PointAnswer> {
  const element = frameElementOf(args.frameIndex!);
  const inner = args.inner ?? { box: { x: 0, y: 0, width: 0, height: 0 }, visible: null };
  if (args.scroll) {
    const wanted = inner.visible ?? inner.box;
    const at = moved(wanted, contentOrigin(element));
    if (!inViewport(at)) {
      element.scrollIntoView(CENTER);
      await painted();
    }
  }
  const origin = contentOrigin(element);
  const box = moved(inner.box, origin);
  const frameShows = visiblePart(element, contentBox(element));
  const visible = inner.visible && frameShows
    ? intersect(moved(inner.visible, origin), frameShows)
    : null;
  const answer: PointAnswer = { box, visible, frameIndex };
  const covering = args.hitCheck && visible ? coveringAt(center(visible), element) : undefined;
  if (covering) answer.covering = described(covering, state);
  return answer;
}

/** How long `painted` waits at most (a hidden tab draws no frames). */
const PAINT_WAIT_MS = 100;

/**
 * After a scroll that moved a frame, or before a wheel turn (`paint`): two animation frames, so
 * the browser's hit testing, which routes a mouse event to an out-of-process frame, and a wheel
 * turn to the box it scrolls, by where the last drawn frame put them, knows the new place.
 */
function painted(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, PAINT_WAIT_MS);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      })
    );
  });
}

/** A checkbox or radio input (what a label's click toggles). */
function isToggle(element: Element): boolean {
  return element instanceof HTMLInputElement && /^(checkbox|radio)$/.test(element.type);
}

/** The visible part of the first label of `input` that shows and that nothing covers. */
function shownLabel(input: HTMLInputElement): PointRect | undefined {
  for (const label of input.labels ?? []) {
    const part = visiblePart(label);
    if (part && !coveringAt(center(part), input)) return part;
  }
}

/** The `<iframe>`/`<frame>` (open shadow roots included) whose window is `frames[index]`. */
function frameElementOf(index: number): Element {
  const here = globalThis as unknown as Window;
  const search = (root: Document | ShadowRoot): Element | undefined => {
    for (const element of root.querySelectorAll("iframe, frame")) {
      if (windowIndex(here, (element as HTMLIFrameElement).contentWindow) === index) {
        return element;
      }
    }
    for (const host of root.querySelectorAll("*")) {
      if (host.shadowRoot) {
        const found = search(host.shadowRoot);
        if (found) return found;
      }
    }
  };
  const found = search(document);
  if (found) return found;
  throw fail(
    "ELEMENT_NOT_FOUND",
    `The frame of the element is no longer on ${location.href}; take a new browser_snapshot.`,
  );
}

/** `dom.acted`: ends the watch `dom.point` started and describes the element now. */
export function actedElement(args: ActedArgs, state: KitState) {
  if (args.ups !== undefined && (watches.get(state)?.ups ?? 0) < args.ups) return { early: true };
  const navigation = stopWatch(state);
  const element = args.ref ? state.refs.elementOf(args.ref) : undefined;
  if (args.box) {
    if (!element) {
      throw fail("REF_STALE", `${args.what ?? "The element"} is no longer on the page.`);
    }
    checkScrollable(element, args.what ?? "The element", args.box);
    return { box: { tag: tagOf(element), ...boxState(element) } };
  }
  const described = element
    ? {
      tag: tagOf(element),
      text: args.text === "inner"
        ? clip(element instanceof HTMLElement ? element.innerText : element.textContent ?? "")
        : contentText(element),
    }
    : {};
  return { ...(navigation ? { navigation } : {}), ...described };
}

/** A click's text of the element: its textContent with white space folded, clipped. */
function contentText(element: Element): string {
  return clip((element.textContent ?? "").trim().replace(/\s+/g, " "));
}

/** The element's border box in this viewport. */
function boxOf(element: Element): PointRect {
  const r = element.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** The frame element's content box (inside its border and padding) in this viewport. */
function contentBox(element: Element): PointRect {
  const origin = contentOrigin(element);
  const style = getComputedStyle(element);
  const px = (value: string) => parseFloat(value) || 0;
  return {
    ...origin,
    width: element.clientWidth - px(style.paddingLeft) - px(style.paddingRight),
    height: element.clientHeight - px(style.paddingTop) - px(style.paddingBottom),
  };
}

/** Where the frame's viewport starts in this viewport (its content box's corner). */
function contentOrigin(element: Element): { x: number; y: number } {
  const r = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const px = (value: string) => parseFloat(value) || 0;
  return {
    x: r.x + element.clientLeft + px(style.paddingLeft),
    y: r.y + element.clientTop + px(style.paddingTop),
  };
}

function moved(rect: PointRect, by: { x: number; y: number }): PointRect {
  return { ...rect, x: rect.x + by.x, y: rect.y + by.y };
}

function intersect(a: PointRect, b: PointRect): PointRect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right - x >= 1 && bottom - y >= 1 ? { x, y, width: right - x, height: bottom - y } : null;
}

const center = (rect: PointRect) => ({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });

/** This document's viewport, less its scroll bars. */
function viewport(): PointRect {
  const root = document.documentElement;
  const standards = document.compatMode === "CSS1Compat";
  return {
    x: 0,
    y: 0,
    width: standards && root.clientWidth ? root.clientWidth : innerWidth,
    height: standards && root.clientHeight ? root.clientHeight : innerHeight,
  };
}

function inViewport(rect: PointRect): boolean {
  const view = viewport();
  return rect.x >= view.x && rect.y >= view.y && rect.x + rect.width <= view.width &&
    rect.y + rect.height <= view.height;
}

/** Whether the whole element shows (nothing to scroll for). */
function allShows(element: Element): boolean {
  const visible = visiblePart(element);
  if (!visible) return false;
  const box = boxOf(element);
  return visible.width * visible.height >= box.width * box.height * 0.99;
}

/**
 * The part of the element a person sees: its largest client rect (a wrapped link has several)
 * cut by the viewport and by each scroll box around it (overflow other than visible), up to a
 * fixed-position element, which only the viewport clips. `within`: a rect to start from instead
 * of the element's own (a frame element's content box).
 */
function visiblePart(element: Element, within?: PointRect): PointRect | null {
  const rects = within ? [within] : [...element.getClientRects()].map((r) => ({
    x: r.x,
    y: r.y,
    width: r.width,
    height: r.height,
  }));
  let best: PointRect | null = null;
  for (const rect of rects) {
    let part = intersect(rect, viewport());
    let node: Element | null = element;
    let fixed = false;
    while (part && node && !fixed) {
      fixed = getComputedStyle(node).position === "fixed";
      node = composedParent(node);
      if (!node || node === document.documentElement || node === document.body) break;
      const style = getComputedStyle(node);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") {
        if (!fixed) part = intersect(part, paddingBox(node));
      }
    }
    if (part && (!best || part.width * part.height > best.width * best.height)) best = part;
  }
  return best;
}

function paddingBox(element: Element): PointRect {
  const r = element.getBoundingClientRect();
  return {
    x: r.x + element.clientLeft,
    y: r.y + element.clientTop,
    width: element.clientWidth,
    height: element.clientHeight,
  };
}

/** The innermost element at (x, y), through open shadow roots. */
function hitAt(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Whether `hit` is `target`, inside it (composed tree), or in a label of it. */
function hits(hit: Element, target: Element): boolean {
  const control = (target as Partial<HTMLInputElement>).labels;
  for (let node: Element | null = hit; node; node = composedParent(node)) {
    if (node === target) return true;
    if (node instanceof HTMLLabelElement && control && node.control === target) return true;
  }
  return false;
}

/** The element over `target` at `point`, or undefined when the browser would hit it there. */
function coveringAt(point: { x: number; y: number }, target: Element): Element | undefined {
  const hit = hitAt(point.x, point.y);
  return hit && !hits(hit, target) ? hit : undefined;
}

/** The covering element as the agent can name it: tag, role, name or text, ref. */
function described(hit: Element, state: KitState): Covering {
  const role = roleOf(hit);
  const name = (nameOf(hit, role) || (hit.textContent ?? "")).trim().replace(/\s+/g, " ");
  return {
    tag: tagOf(hit),
    ...(role && role !== "generic" ? { role } : {}),
    ...(name ? { name: clip(name, 80) } : {}),
    ref: state.refs.refOf(hit, state.scheme),
  };
}

/** The navigation watch between `dom.point` and `dom.acted` (one per document at a time). */
interface Watch {
  seen: Event[];
  /** The trusted `mouseup`s seen (a click's read may come before its release: ActedArgs.ups). */
  ups: number;
  stop(): void;
}

const watches = new WeakMap<KitState, Watch>();

/**
 * Listens for what may start a navigation, as the worker's own watch around a kit operation does
 * (dom_call.ts callKit): `navigate` on `navigation`, `submit`, a click on a link.
 */
export function startWatch(state: KitState): void {
  stopWatch(state);
  const navigation = Reflect.get(globalThis, "navigation") as EventTarget | undefined;
  if (typeof navigation?.addEventListener !== "function") return;
  const seen: Event[] = [];
  const onEvent = (event: Event) => seen.push(event);
  const onClick = (event: Event) =>
    event.composedPath().some((n) => n instanceof Element && n.matches("a[href], area[href]")) &&
    seen.push(event);
  const onUp = (event: Event) => event.isTrusted && watch.ups++;
  navigation.addEventListener("navigate", onEvent);
  addEventListener("submit", onEvent, true);
  addEventListener("click", onClick, true);
  addEventListener("mouseup", onUp, true);
  const watch: Watch = {
    seen,
    ups: 0,
    stop() {
      navigation.removeEventListener("navigate", onEvent);
      removeEventListener("submit", onEvent, true);
      removeEventListener("click", onClick, true);
      removeEventListener("mouseup", onUp, true);
    },
  };
  watches.set(state, watch);
}

/** Ends the watch: "possible" when a navigation may have begun, "none", or undefined (no watch). */
export function stopWatch(state: KitState): "none" | "possible" | undefined {
  const watch = watches.get(state);
  if (!watch) return;
  watches.delete(state);
  watch.stop();
  const possible = watch.seen.some((event) => event.type === "navigate" || !event.defaultPrevented);
  return possible ? "possible" : "none";
}
