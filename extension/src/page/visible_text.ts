/**
 * The text a person sees in an element: its rendered text (`innerText`) with the parts hidden from
 * people (visibility.ts) cut out. A subtree with nothing hidden in it keeps exactly the text
 * `textOf` gives it, so a page without hidden text reads as before; only the elements that hold
 * hidden text are walked here, node by node.
 */
import {
  composedChildren,
  composedParent,
  composedText,
  INLINE_DISPLAY,
  renderedText,
} from "./dom_deep.ts";
import type { FramesShown } from "./dom_kit_types.ts";
import { windowIndex } from "./dom_frames.ts";
import { hidesOwnText, isHiddenFromPeople, type PageFacts, pageFacts } from "./visibility.ts";

/** Never text, hidden or not: code, templates, and what frames and media draw themselves. */
const NOT_TEXT = new Set([
  "SCRIPT",
  "STYLE",
  "TEMPLATE",
  "NOSCRIPT",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "VIDEO",
  "AUDIO",
  "CANVAS",
]);

/** Not walked into: no visible text of their own, or text the browser draws itself. */
const LEAVES = new Set([...NOT_TEXT, "SELECT", "DATALIST", "TEXTAREA", "OPTION", "OPTGROUP"]);

/**
 * The visible text of `root`: "" when `root` or one of its ancestors is hidden from people;
 * otherwise `textOf(root)` when nothing inside is hidden, else the text rebuilt around the hidden
 * elements (block boxes on their own lines, table cells split by tabs, `<br>` as a line break).
 */
export function visibleText(
  root: Element,
  textOf: (element: Element) => string = renderedText,
): string {
  const page = pageFacts(root.ownerDocument);
  if (hiddenInPage(root, page)) return "";
  const hidden = new Set<Element>();
  const dirty = new Set<Element>();
  markHidden(root, page, hidden, dirty);
  if (hidesTextInnerTextKeeps(getComputedStyle(root), root)) dirty.add(root);
  if (!dirty.has(root)) return textOf(root);
  return compose(root, hidden, dirty, textOf)
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The text a person sees in `element`, open shadow roots included (composedText): every part of
 * the composed walk is judged by the same rule (isHiddenFromPeople, hidesOwnText), so a hidden
 * host's shadow text, or a hidden shadow element's slotted text, stays out.
 */
export function visibleComposedText(element: Element): string {
  const page = pageFacts(element.ownerDocument);
  const hiding = {
    element: (at: Element, style: CSSStyleDeclaration) => isHiddenFromPeople(at, style, page),
    ownText: hidesOwnText,
  };
  return visibleText(element, (part) => composedText(part, (piece) => visibleText(piece), hiding));
}

/**
 * True when `element` or one of its ancestors in the composed tree (a slotted node's slot, a
 * shadow root's host) is hidden from people.
 */
export function hiddenInPage(
  element: Element,
  page: PageFacts = pageFacts(element.ownerDocument),
): boolean {
  return hiddenJudge(page)(element);
}

/**
 * hiddenInPage for many elements of one document (browser_query_elements' matches): each
 * element's verdict is kept, so a shared ancestor is judged once.
 */
export function hiddenJudge(page: PageFacts = pageFacts(document)): (element: Element) => boolean {
  const known = new Map<Element, boolean>();
  const judge = (element: Element): boolean => {
    const seen = known.get(element);
    if (seen !== undefined) return seen;
    const parent = composedParent(element);
    const hidden = (parent !== null && judge(parent)) ||
      isHiddenFromPeople(element, getComputedStyle(element), page);
    known.set(element, hidden);
    return hidden;
  };
  return judge;
}

/**
 * All the text of `root`, hidden parts included (`includeHidden: true`): the composed tree's text
 * nodes, blocks on their own lines, table cells split by tabs; a subtree that is not rendered
 * (`display: none`) reads as a block. Script, style and frame contents are never text.
 */
export function allText(root: Element): string {
  return allOf(root)
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function allOf(element: Element): string {
  let out = "";
  for (const node of composedChildren(element)) {
    if (node.nodeType === Node.TEXT_NODE) {
      out += (node.nodeValue ?? "").replace(/\s+/g, " ");
      continue;
    }
    if (!(node instanceof Element) || NOT_TEXT.has(node.tagName)) continue;
    if (node.tagName === "BR") {
      out += "\n";
      continue;
    }
    const display = getComputedStyle(node).display;
    out += framed(allOf(node), node.tagName, display === "none" ? "block" : display);
  }
  return out;
}

/** The frame elements: each holds a child frame (an `<object>` or `<embed>` may). */
const FRAME_ELEMENTS = "iframe, frame, object, embed";

/**
 * The child frames this document shows (the allow-list the worker reads frames by):
 * `indexes`, in this window's `frames`, of the frame elements not hidden from people (composed
 * ancestors included); and, for the frame elements in shadow roots (the browser leaves them out of
 * `frames`, so their frames answer index -1), how many are shown and whether one is hidden. Closed
 * shadow roots are looked into when `chrome.dom.openOrClosedShadowRoot` is there (the kit's
 * isolated world); the worker shows no index -1 child when more answer -1 than `shadowShown`.
 */
export function framesShown(doc: Document = document): FramesShown {
  const shown: FramesShown = { indexes: [], shadowShown: 0, shadowHidden: false };
  const view = doc.defaultView;
  if (!view) return shown;
  const page = pageFacts(doc);
  for (const element of frameElementsDeep(doc)) {
    const hidden = hiddenInPage(element, page);
    const index = windowIndex(view, (element as HTMLIFrameElement).contentWindow ?? null);
    if (index >= 0) {
      if (!hidden && !shown.indexes.includes(index)) {
        shown.indexes.push(index);
        (shown.sources ??= []).push(frameSource(element));
      }
    } else if (element.getRootNode() instanceof ShadowRoot) {
      if (hidden) shown.shadowHidden = true;
      else shown.shadowShown++;
    }
  }
  return shown;
}

/** The URL a frame element was given: an iframe's or embed's `src`, an object's `data`; or "". */
export function frameSource(element: Element): string {
  const given = (element as Partial<HTMLIFrameElement>).src ??
    (element as Partial<HTMLObjectElement>).data;
  return typeof given === "string" ? given : "";
}

/** Every frame element of `root`, in open and (when the kit can open them) closed shadow roots. */
function frameElementsDeep(root: Document | ShadowRoot, out: Element[] = []): Element[] {
  const dom = Reflect.get(globalThis, "chrome")?.dom as
    | { openOrClosedShadowRoot?: (element: Element) => ShadowRoot | null }
    | undefined;
  const open = typeof dom?.openOrClosedShadowRoot === "function"
    ? (element: Element) => element.shadowRoot ?? dom.openOrClosedShadowRoot!(element)
    : (element: Element) => element.shadowRoot;
  const walk = (scope: Document | ShadowRoot) => {
    for (const element of scope.querySelectorAll("*")) {
      if (element.matches(FRAME_ELEMENTS)) out.push(element);
      let shadow: ShadowRoot | null = null;
      try {
        shadow = open(element);
      } catch { /* not a host */ }
      if (shadow) walk(shadow);
    }
  };
  walk(root);
  return out;
}

/**
 * Records the hidden elements under `element` (their subtrees are not visited) and, as `dirty`,
 * every element that holds hidden text `innerText` would still show (display:none text it leaves
 * out by itself; an element whose own text only hidesOwnText hides, transparent or too small,
 * is dirty itself). Answers whether `element` is dirty.
 */
function markHidden(
  element: Element,
  page: PageFacts,
  hidden: Set<Element>,
  dirty: Set<Element>,
): boolean {
  let holdsHidden = false;
  for (const child of element.children) {
    const style = getComputedStyle(child);
    if (isHiddenFromPeople(child, style, page)) {
      hidden.add(child);
      // (A hidden host's shadow tree is left out by visibleComposedText's walk.)
      if (style.display !== "none" && child.textContent?.trim()) holdsHidden = true;
      continue;
    }
    if (child instanceof HTMLSelectElement) {
      if (markHiddenOptions(child, hidden, dirty)) holdsHidden = true;
      continue;
    }
    if (LEAVES.has(child.tagName) || child.shadowRoot) continue;
    if (hidesTextInnerTextKeeps(style, child)) {
      dirty.add(child);
      holdsHidden = true;
    }
    if (markHidden(child, page, hidden, dirty)) holdsHidden = true;
  }
  if (holdsHidden) dirty.add(element);
  return holdsHidden;
}

/**
 * A select's options hidden by `hidden` or `display: none` (innerText gives every option's text):
 * recorded as hidden, their select (and optgroup) as dirty. Answers whether there was one.
 */
function markHiddenOptions(
  select: HTMLSelectElement,
  hidden: Set<Element>,
  dirty: Set<Element>,
): boolean {
  let any = false;
  for (const option of select.options) {
    if (!option.hidden && getComputedStyle(option).display !== "none") continue;
    hidden.add(option);
    dirty.add(select);
    if (option.parentElement?.tagName === "OPTGROUP") dirty.add(option.parentElement);
    any = true;
  }
  return any;
}

/**
 * Whether `element` has text of its own that hidesOwnText hides but innerText still gives (all
 * but `visibility`, which innerText applies itself): compose must then leave its text nodes out.
 */
function hidesTextInnerTextKeeps(style: CSSStyleDeclaration, element: Element): boolean {
  if (style.visibility !== "visible" || !hidesOwnText(style)) return false;
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE && /\S/.test(node.nodeValue ?? "")) return true;
  }
  return false;
}

function compose(
  element: Element,
  hidden: Set<Element>,
  dirty: Set<Element>,
  textOf: (element: Element) => string,
): string {
  const ownTextHidden = hidesOwnText(getComputedStyle(element));
  let out = "";
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!ownTextHidden) out += (node.nodeValue ?? "").replace(/\s+/g, " ");
      continue;
    }
    if (!(node instanceof Element) || hidden.has(node)) continue;
    const style = getComputedStyle(node);
    if (style.display === "none") continue;
    if (node.tagName === "BR") {
      out += "\n";
      continue;
    }
    const text = dirty.has(node) ? compose(node, hidden, dirty, textOf) : textOf(node);
    out += framed(text, node.tagName, style.display);
  }
  return out;
}

/** The line breaks or tab a box of this display puts around its text. */
function framed(text: string, tag: string, display: string): string {
  if (tag === "P") return `\n\n${text}\n\n`;
  if (display === "table-cell") return `${text}\t`;
  if (INLINE_DISPLAY.test(display)) return text;
  return `\n${text}\n`;
}
