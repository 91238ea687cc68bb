/**
 * Which elements a person cannot see, for the reading tools (browser_get_page_text today, the page
 * snapshot later): one rule set, so every tool leaves out the same text. Content merely below the
 * fold is visible (a person scrolls to it); content a person can never bring into view is not.
 */

/** The computed style values the rules read (a `CSSStyleDeclaration` has them all). */
export type HiddenStyle = Pick<
  CSSStyleDeclaration,
  | "display"
  | "visibility"
  | "opacity"
  | "overflowX"
  | "overflowY"
  | "clip"
  | "clipPath"
  | "position"
>;

/** How far the page can scroll: document-wide facts, read once per walk (`pageFacts`). */
export interface PageFacts {
  scrollX: number;
  scrollY: number;
  viewportWidth: number;
  viewportHeight: number;
  /** True when the page itself cannot scroll that way (`overflow: hidden` on the root). */
  rootClipsX: boolean;
  rootClipsY: boolean;
}

const clips = (overflow: string) => overflow !== "visible";

/**
 * True when `element` and everything in it is hidden from people: `display: none`, `opacity: 0`,
 * `aria-hidden="true"`, the `hidden` attribute, a zero-size box that clips its content (or holds
 * no child element), a box clipped to at most 1 pixel (the usual "visually hidden" pattern:
 * `clip: rect(0 0 0 0)`, `clip-path: inset(50%)`, or 1×1 px with overflow hidden), or a box placed
 * where nobody can scroll: above or left of the page's start, outside the viewport when fixed, or
 * past the viewport on an axis the page does not scroll. `visibility: hidden` is not here: it is
 * inherited and a child may be `visible` again, so callers judge text by its parent's visibility
 * (`hidesOwnText`). `display: contents` boxes have no size of their own and are judged by their
 * children. One `getComputedStyle` per element; callers skip the subtree of a hidden element.
 */
export function isHiddenFromPeople(
  element: Element,
  style: HiddenStyle = getComputedStyle(element),
  page: PageFacts = pageFacts(element.ownerDocument),
): boolean {
  if (style.display === "none") return true;
  if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden")) return true;
  if (Number(style.opacity) === 0) return true;
  if (style.display === "contents") return false;
  if (clippedAway(style)) return true;
  const rect = element.getBoundingClientRect();
  const clipping = clips(style.overflowX) || clips(style.overflowY);
  if (rect.width === 0 || rect.height === 0) {
    if (clipping || element.childElementCount === 0) return true;
  } else if (rect.width <= 1 && rect.height <= 1 && clipping) return true;
  return outOfReach(rect, page, style.position === "fixed");
}

/** True when the element's own text nodes are invisible (`visibility: hidden` or `collapse`). */
export function hidesOwnText(style: Pick<CSSStyleDeclaration, "visibility">): boolean {
  return style.visibility !== "visible";
}

/** `clip: rect(…)` (absolute and fixed boxes) or `clip-path: inset(≥ 50%)` leaving ≤ 1 px. */
function clippedAway(style: HiddenStyle): boolean {
  if (style.clip && style.clip !== "auto" && /^(absolute|fixed)$/.test(style.position)) {
    const sides = style.clip.match(/-?[\d.]+(?=px)|auto/g);
    if (sides?.length === 4 && !sides.includes("auto")) {
      const [top, right, bottom, left] = sides.map(Number);
      if (right - left <= 1 || bottom - top <= 1) return true;
    }
  }
  const inset = /^inset\(\s*(\d+(?:\.\d+)?)%\s*\)/.exec(style.clipPath ?? "");
  return inset !== null && Number(inset[1]) >= 50;
}

/** Placed where no scrolling brings it into view; below the fold does not count. */
function outOfReach(rect: DOMRect, page: PageFacts, fixed: boolean): boolean {
  const { viewportWidth, viewportHeight } = page;
  if (fixed) {
    return rect.right <= 0 || rect.bottom <= 0 || rect.left >= viewportWidth ||
      rect.top >= viewportHeight;
  }
  const left = rect.left + page.scrollX;
  const top = rect.top + page.scrollY;
  if (rect.right + page.scrollX <= 0 || rect.bottom + page.scrollY <= 0) return true;
  return (page.rootClipsX && left >= viewportWidth) || (page.rootClipsY && top >= viewportHeight);
}

/** The document-wide facts `isHiddenFromPeople` needs, read from the live page. */
export function pageFacts(doc: Document): PageFacts {
  const view = doc.defaultView ?? globalThis as unknown as Window;
  const root = doc.documentElement;
  const body = doc.body;
  const rootStyle = view.getComputedStyle(root);
  const bodyStyle = body ? view.getComputedStyle(body) : rootStyle;
  // The viewport takes the root's overflow, or the body's when the root's is visible.
  const viewportStyle = rootStyle.overflowX === "visible" && rootStyle.overflowY === "visible"
    ? bodyStyle
    : rootStyle;
  return {
    scrollX: view.scrollX,
    scrollY: view.scrollY,
    viewportWidth: view.innerWidth,
    viewportHeight: view.innerHeight,
    rootClipsX: /^(hidden|clip)$/.test(viewportStyle.overflowX),
    rootClipsY: /^(hidden|clip)$/.test(viewportStyle.overflowY),
  };
}
