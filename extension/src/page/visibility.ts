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
  | "filter"
  | "overflowX"
  | "overflowY"
  | "clip"
  | "clipPath"
  | "position"
>;

/** The computed style values `hidesOwnText` reads (a `CSSStyleDeclaration` has them all). */
export type OwnTextStyle = Pick<
  CSSStyleDeclaration,
  | "visibility"
  | "color"
  | "webkitTextFillColor"
  | "backgroundClip"
  | "webkitBackgroundClip"
  | "webkitTextStrokeWidth"
  | "webkitTextStrokeColor"
  | "textShadow"
  | "fontSize"
  | "textIndent"
  | "width"
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
 * True when `element` and everything in it is hidden from people: `display: none`, an opacity
 * under 0.05 (its own, or `filter: opacity(…)`; see seeThrough), `aria-hidden="true"`, the
 * `hidden` attribute, a zero-size box that clips its content (or holds no child element), a box
 * clipped to at most 1 pixel (the usual "visually hidden" pattern: `clip: rect(0 0 0 0)`, a
 * `clip-path` of `inset(…)` leaving nothing, `circle(0)`, `ellipse(0 …)` or a `polygon(…)` of no
 * area, or 1×1 px with overflow hidden), a box a `transform` shrinks under 2 px across (scaledTiny),
 * or a box placed where nobody can scroll: above or left of the page's start,
 * outside the viewport when fixed, or past the viewport on an axis the page does not scroll.
 * What hides only an element's own text (`visibility: hidden`, transparent ink, a tiny font, a
 * text-indent past the box) is not here: those are inherited and a child may undo them, so
 * callers judge text by its parent's style (`hidesOwnText`). `display: contents` boxes have no
 * size of their own and are judged by their children; a select's options and groups by their
 * select. One `getComputedStyle` per element;
 * callers skip the subtree of a hidden element.
 */
export function isHiddenFromPeople(
  element: Element,
  style: HiddenStyle = getComputedStyle(element),
  page: PageFacts = pageFacts(element.ownerDocument),
): boolean {
  if (style.display === "none") return true;
  if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden")) return true;
  if (seeThrough(style)) return true;
  // A select's options draw no box of their own: the select shows them (its own box is judged).
  if (style.display === "contents" || BOXLESS.has(element.tagName)) return false;
  const rect = element.getBoundingClientRect();
  if (clippedAway(style, rect) || scaledTiny(element, rect)) return true;
  const clipping = clips(style.overflowX) || clips(style.overflowY);
  if (rect.width === 0 || rect.height === 0) {
    if (clipping || element.childElementCount === 0) return true;
  } else if (rect.width <= 1 && rect.height <= 1 && clipping) return true;
  return outOfReach(rect, page, style.position === "fixed");
}

/** Elements without a box of their own, judged only by display, hidden and aria-hidden. */
const BOXLESS = new Set(["OPTION", "OPTGROUP"]);

/**
 * Below this opacity (the element's own, not multiplied by its ancestors') nobody sees it; nor
 * ink (text, stroke or shadow colour) of a lower alpha.
 */
const MIN_OPACITY = 0.05;
/** A box drawn (after transforms) under this many pixels across, or high, shows nothing. */
const MIN_DRAWN_PX = 2;
/** A text shadow offset more than this many pixels is drawn away from its text: no ink there. */
const MAX_SHADOW_OFFSET_PX = 20;

/**
 * True when a `transform` (the element's or an ancestor's) draws the box under MIN_DRAWN_PX wide
 * or high while its layout box (`offsetWidth` / `offsetHeight`, which transforms do not change)
 * is larger, by a pixel at least so that rounding never counts: `transform: scale(0.01)`.
 */
function scaledTiny(element: Element, rect: { width: number; height: number }): boolean {
  const { offsetWidth, offsetHeight } = element as Partial<HTMLElement>;
  const shrunk = (drawn: number, layout: number | undefined) =>
    drawn < MIN_DRAWN_PX && layout !== undefined && layout - drawn >= 1;
  return shrunk(rect.width, offsetWidth) || shrunk(rect.height, offsetHeight);
}
/** Text drawn smaller than this many pixels cannot be read. */
const MIN_FONT_PX = 3;

/** An opacity under MIN_OPACITY, its own or by `filter: opacity(…)`; a whole subtree. */
export function seeThrough(style: Pick<HiddenStyle, "opacity" | "filter">): boolean {
  const opacity = parseFloat(style.opacity);
  if (opacity < MIN_OPACITY) return true;
  for (const [, value, percent] of (style.filter ?? "").matchAll(/opacity\(\s*([\d.]+)(%?)/g)) {
    if (Number(value) / (percent ? 100 : 1) < MIN_OPACITY) return true;
  }
  return false;
}

/**
 * True when the element's own text nodes are invisible: `visibility: hidden` or `collapse`, no
 * ink (inkless: transparent colour, a font under 3 px), or a negative `text-indent` at least the
 * box's width (the old image-replacement trick: the text sits left of its box). Each of these is
 * inherited, so a child's text is judged by the child's own style (it can set a colour back).
 */
export function hidesOwnText(style: OwnTextStyle): boolean {
  return style.visibility !== "visible" || inkless(style) || indentedAway(style);
}

/**
 * True when the element's own text is drawn without ink a person sees: a
 * `-webkit-text-fill-color` of alpha under 0.05 (computed, it is the text colour unless set
 * apart; but for a gradient drawn through the text, `background-clip: text`, a visible
 * `-webkit-text-stroke` or a visible `text-shadow` near the text, offset at most 20 px), or a font
 * under 3 px. Names (dom_names.ts) leave such text out too.
 */
export function inkless(style: Omit<OwnTextStyle, "textIndent" | "width">): boolean {
  if (parseFloat(style.fontSize) < MIN_FONT_PX) return true;
  // The fill colour is what is drawn; its computed value is the text colour unless set apart.
  if (inked(style.webkitTextFillColor || style.color)) return false;
  const clip = `${style.backgroundClip ?? ""} ${style.webkitBackgroundClip ?? ""}`;
  if (/\btext\b/.test(clip)) return false;
  const stroke = parseFloat(style.webkitTextStrokeWidth);
  if (stroke > 0 && inked(style.webkitTextStrokeColor)) return false;
  return !nearShadow(style.textShadow ?? "none");
}

/** A colour a person sees: alpha MIN_OPACITY or more. */
const inked = (color: string | undefined) => alphaOf(color) >= MIN_OPACITY;

/**
 * True when a computed `text-shadow` (Chromium writes each shadow colour first: `rgb(0, 0, 0)
 * 2px 2px 4px, …`) has a seen colour drawn near the text: both offsets within
 * ±MAX_SHADOW_OFFSET_PX. A shadow thrown 9999 px away draws nothing where the text is.
 */
function nearShadow(shadow: string): boolean {
  if (shadow === "none") return false;
  const colors = [...shadow.matchAll(COLOR)];
  return colors.some((color, i) => {
    const end = colors[i + 1]?.index ?? shadow.length;
    const after = shadow.slice(color.index + color[0].length, end);
    const [x, y] = (after.match(/-?[\d.]+(?=px)/g) ?? []).map(Number);
    const near = (offset: number | undefined) =>
      offset !== undefined && Math.abs(offset) <= MAX_SHADOW_OFFSET_PX;
    return inked(color[0]) && near(x) && near(y);
  });
}

/** A computed colour in a string (Chromium writes `rgb(…)`, `rgba(…)` or `<space>(… / a)`). */
const COLOR = /\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^)]*\)|\btransparent\b/g;

/** The alpha (0–1) of a computed colour; 1 when it cannot be read (as if opaque). */
export function alphaOf(color: string | undefined): number {
  if (!color) return 1;
  if (color.trim() === "transparent") return 0;
  const inner = /\(([^)]*)\)/.exec(color)?.[1];
  if (inner === undefined) return 1;
  const slash = inner.split("/");
  const commas = inner.split(",");
  const alpha = slash.length === 2 ? slash[1] : commas.length === 4 ? commas[3] : undefined;
  if (alpha === undefined) return 1;
  const value = parseFloat(alpha);
  if (Number.isNaN(value)) return 1;
  return alpha.trim().endsWith("%") ? value / 100 : value;
}

/** A negative `text-indent` of at least the box's width (or -100%): the text is left of it. */
function indentedAway(style: Pick<OwnTextStyle, "textIndent" | "width">): boolean {
  const indent = parseFloat(style.textIndent);
  if (!(indent < 0)) return false;
  if (style.textIndent.trim().endsWith("%")) return indent <= -100;
  const width = parseFloat(style.width); // "auto" for inline boxes, where text-indent does nothing
  return width >= 0 && indent <= -width;
}

/**
 * `clip: rect(…)` (absolute and fixed boxes) leaving ≤ 1 px, or a `clip-path` that leaves
 * nothing: `inset(…)` (1–4 lengths, `%` of the box) leaving ≤ 1 px across, `circle(0…)`,
 * `ellipse(0 …)` / `ellipse(… 0)`, a `polygon(…)` of no area (its points all one, or on one line).
 */
function clippedAway(style: HiddenStyle, box: { width: number; height: number }): boolean {
  if (style.clip && style.clip !== "auto" && /^(absolute|fixed)$/.test(style.position)) {
    const sides = style.clip.match(/-?[\d.]+(?=px)|auto/g);
    if (sides?.length === 4 && !sides.includes("auto")) {
      const [top, right, bottom, left] = sides.map(Number);
      if (right - left <= 1 || bottom - top <= 1) return true;
    }
  }
  const shape = /^(inset|circle|ellipse|polygon)\(([^)]*)\)/.exec((style.clipPath ?? "").trim());
  if (!shape) return false;
  if (shape[1] === "polygon") return flatPolygon(shape[2], box);
  const values = shape[2].split(/\s+(?:round|at)\s+/)[0].trim().split(/\s+/);
  if (shape[1] !== "inset") {
    const radii = shape[1] === "circle" ? values.slice(0, 1) : values.slice(0, 2);
    return radii.some((radius) => /^0(?:\.0*)?(?:px|%)?$/.test(radius));
  }
  const [top, right = top, bottom = top, left = right] = values;
  const across = box.height - px(top, box.height) - px(bottom, box.height);
  const along = box.width - px(left, box.width) - px(right, box.width);
  return across <= 1 || along <= 1;
}

/** `value` (a length: px or % of `size`) in pixels; NaN for calc() and other forms (not judged). */
function px(value: string | undefined, size: number): number {
  const match = /^(-?[\d.]+)(px|%)?$/.exec(value ?? "");
  if (!match) return NaN;
  return match[2] === "%" ? Number(match[1]) / 100 * size : Number(match[1]);
}

/**
 * True when the points of a `polygon(…)` (its inside, after an optional fill rule) enclose less
 * than one square pixel: all the same point, or all on one line. A point it cannot read (calc())
 * makes it not judged.
 */
function flatPolygon(inside: string, box: { width: number; height: number }): boolean {
  const points = inside.replace(/^\s*(?:nonzero|evenodd)\s*,/, "").split(",").map((point) => {
    const [x, y] = point.trim().split(/\s+/);
    return [px(x, box.width), px(y, box.height)];
  });
  if (points.some(([x, y]) => Number.isNaN(x) || Number.isNaN(y))) return false;
  let twice = 0; // the shoelace formula: twice the signed area
  points.forEach(([x, y], i) => {
    const [nextX, nextY] = points[(i + 1) % points.length];
    twice += x * nextY - nextX * y;
  });
  return Math.abs(twice) / 2 < 1;
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
