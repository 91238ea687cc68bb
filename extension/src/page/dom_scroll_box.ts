/**
 * `dom.scroll` inside an element's own scroll box (browser_scroll with a selector and x/y or to):
 * a scrolling list, grid or chat pane. x/y scroll by that many pixels and `to` goes to the top or
 * bottom of the box, as they do for the page. An element a person cannot scroll (overflow visible
 * or clip on the axis asked for) fails with NOT_SCROLLABLE naming its nearest scrolling ancestor.
 * The element comes from the caller's lookup (today the selector; a ref later goes the same way).
 */
import { fail, tagOf } from "./dom_find.ts";
import type { KitArgs } from "./dom_kit_types.ts";

/** The movement of a scroll: x/y by pixels, or `to` an edge. */
export type ScrollMove = Pick<KitArgs<"dom.scroll">, "x" | "y" | "to">;

/** What of an element's scroll box the answer reports (Element's own property names). */
export interface ScrollBox {
  scrollLeft: number;
  scrollTop: number;
  scrollWidth: number;
  scrollHeight: number;
  clientWidth: number;
  clientHeight: number;
}

/** An element whose box can be moved (`Element` satisfies it). */
export interface Scroller extends ScrollBox {
  scrollBy(options: ScrollToOptions): void;
  scrollTo(options: ScrollToOptions): void;
}

/** Whether the input moves at all (x, y or to given), rather than bringing an element into view. */
export function movesBox(move: ScrollMove): boolean {
  return move.x !== undefined || move.y !== undefined || move.to !== undefined;
}

/** The axes a move needs the box to scroll along: `to` is vertical; x/y those not 0. */
export function movedAxes(move: ScrollMove): ("x" | "y")[] {
  if (move.to) return ["y"];
  const axes: ("x" | "y")[] = [];
  if (move.x) axes.push("x");
  if (move.y) axes.push("y");
  return axes;
}

/** Whether a computed `overflow-x`/`overflow-y` lets a person scroll the box along that axis. */
export function overflowScrolls(overflow: string): boolean {
  return overflow === "auto" || overflow === "scroll" || overflow === "overlay";
}

/**
 * Whether a box with these computed overflows scrolls for `move`: along every axis it moves, or
 * along at least one when it moves by 0 (x: 0 / y: 0 only reads the position).
 */
export function scrollsFor(overflow: { x: string; y: string }, move: ScrollMove): boolean {
  const axes = movedAxes(move);
  if (axes.length === 0) return overflowScrolls(overflow.x) || overflowScrolls(overflow.y);
  return axes.every((axis) => overflowScrolls(overflow[axis]));
}

/**
 * The answer's `element` part: the box's position after the move, its sizes, and whether content
 * lies beyond each edge (at least one pixel more to scroll), so a caller can page through a list.
 */
export function boxState(box: ScrollBox) {
  const scrollLeft = Math.round(box.scrollLeft);
  const scrollTop = Math.round(box.scrollTop);
  return {
    scrollLeft,
    scrollTop,
    scrollWidth: box.scrollWidth,
    scrollHeight: box.scrollHeight,
    clientWidth: box.clientWidth,
    clientHeight: box.clientHeight,
    moreLeft: scrollLeft >= 1,
    moreRight: box.scrollWidth - box.clientWidth - scrollLeft >= 1,
    moreAbove: scrollTop >= 1,
    moreBelow: box.scrollHeight - box.clientHeight - scrollTop >= 1,
  };
}

/** Moves the box: `to` keeps the horizontal position; x/y of 0 do not move it. */
export function moveBox(box: Scroller, move: ScrollMove): void {
  if (move.to === "top") box.scrollTo({ top: 0, left: box.scrollLeft, behavior: "instant" });
  else if (move.to === "bottom") {
    box.scrollTo({ top: box.scrollHeight, left: box.scrollLeft, behavior: "instant" });
  } else {
    const left = move.x ?? 0;
    const top = move.y ?? 0;
    if (left || top) box.scrollBy({ left, top, behavior: "instant" });
  }
}

/** A short CSS-like name of an element for messages: tag, then #id or its first class. */
function nameOf(element: Element): string {
  if (element.id) return `${tagOf(element)}#${element.id}`;
  const first = element.classList?.[0];
  return first ? `${tagOf(element)}.${first}` : tagOf(element);
}

function overflowOf(element: Element) {
  const style = getComputedStyle(element);
  return { x: style.overflowX, y: style.overflowY };
}

/**
 * The element's parent element, or its shadow root's host, or null at the top. Not dom_deep.ts's
 * composedParent: this one does not step from a slotted element to its slot, so the ancestor named
 * in NOT_SCROLLABLE is found along the light tree (kept so; moving to slots would change the hint).
 */
function treeParent(element: Element): Element | null {
  if (element.parentElement) return element.parentElement;
  const root = element.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}

/** The nearest ancestor that scrolls for `move`, short of the page's own scrolling element. */
function scrollingAncestor(element: Element, move: ScrollMove): Element | undefined {
  const page = document.scrollingElement ?? document.documentElement;
  for (let at = treeParent(element); at && at !== page; at = treeParent(at)) {
    if (scrollsFor(overflowOf(at), move)) return at;
  }
  return undefined;
}

/**
 * Scrolls `element`'s own box by `move` and answers its state with its tag. The page's scrolling
 * element (`html`) always scrolls: it is the page's box.
 */
export function scrollInside(element: Element, what: string, move: ScrollMove) {
  checkScrollable(element, what, move);
  moveBox(element, move);
  return { tag: tagOf(element), ...boxState(element) };
}

/**
 * Fails with NOT_SCROLLABLE when `element` has no scroll box for `move` (see scrollInside); the
 * trusted path checks this before it turns the wheel over the element.
 */
export function checkScrollable(element: Element, what: string, move: ScrollMove): void {
  const page = document.scrollingElement ?? document.documentElement;
  if (element === page || scrollsFor(overflowOf(element), move)) return;
  const ancestor = scrollingAncestor(element, move);
  const axes = movedAxes(move);
  const axis = axes.length === 1 ? axes[0] === "y" ? " vertically" : " horizontally" : "";
  throw fail(
    "NOT_SCROLLABLE",
    `${what} matches a <${tagOf(element)}> that does not scroll${axis}: it has no scroll box ` +
      "of its own (its overflow is not auto or scroll). " +
      (ancestor
        ? `Its nearest scrolling ancestor is ${nameOf(ancestor)}; pass a selector for that. `
        : "No element around it scrolls either. ") +
      "Without a selector, x/y and to scroll the page; without x/y and to, the selector's " +
      "element is brought into view.",
  );
}
