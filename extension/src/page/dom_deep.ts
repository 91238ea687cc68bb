/**
 * Open shadow roots for the DOM kit: the `host >>> inner` selector syntax, selector matching that
 * also searches every open shadow root (composed-tree order), and the text of an element whose
 * subtree holds web components. Closed shadow roots cannot be reached from a content script and
 * stay out. On a page without open shadow roots every function here gives exactly what the plain
 * DOM call gives (querySelectorAll, innerText).
 */
import { clipForMessage, MAX_QUOTE, quoteClip } from "../../../protocol/clip.ts";
import { PIERCE_MAX_STEPS } from "../../../protocol/browser_methods/dom_limits.ts";

/** The piercing combinator: `host-selector >>> inner-selector`. */
export const PIERCE = ">>>";

/** Where a tree can be searched: the document, a shadow root, or an element's subtree. */
export type Scope = Document | ShadowRoot | Element;

/** Why a `>>>` selector cannot be used; the message names the bad part. */
export class BadSelector extends Error {
  override name = "BadSelector";
}

/**
 * Splits `a >>> b >>> c` into its steps, trimmed. `>>>` inside quotes (an attribute value) does
 * not split. Fails with BadSelector on an empty step or more than PIERCE_MAX_STEPS of them.
 */
export function pierceSteps(selector: string): string[] {
  const steps: string[] = [];
  let quote = "";
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (char === "\\") {
      i++;
    } else if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (selector.startsWith(PIERCE, i)) {
      steps.push(selector.slice(start, i).trim());
      i += PIERCE.length - 1;
      start = i + 1;
    }
  }
  steps.push(selector.slice(start).trim());
  if (steps.length - 1 > PIERCE_MAX_STEPS) {
    throw new BadSelector(
      `it has ${steps.length - 1} "${PIERCE}" steps; at most ${PIERCE_MAX_STEPS} are allowed`,
    );
  }
  const empty = steps.findIndex((step) => step === "");
  if (empty >= 0 && steps.length > 1) {
    throw new BadSelector(`part ${empty + 1} of ${steps.length} is empty`);
  }
  return steps;
}

/** The open shadow roots directly inside `scope`'s tree (not nested ones), in tree order. */
function shadowRootsIn(scope: Scope): ShadowRoot[] {
  const roots: ShadowRoot[] = [];
  const own = (scope as Partial<Element>).shadowRoot; // a Document or ShadowRoot has none
  if (own) roots.push(own);
  for (const element of scope.querySelectorAll("*")) {
    if (element.shadowRoot) roots.push(element.shadowRoot);
  }
  return roots;
}

/**
 * Every element matching `selector` in `scope` and in the open shadow roots below it, at any
 * depth, in composed-tree order: a host, then its shadow tree, then its light children. The
 * selector is matched within each tree (CSS combinators do not cross a shadow boundary). Without
 * open shadow roots this is `scope.querySelectorAll(selector)`. Throws the browser's SyntaxError.
 */
export function queryDeep(scope: Scope, selector: string): Element[] {
  const matches = [...scope.querySelectorAll(selector)];
  const roots = shadowRootsIn(scope);
  if (roots.length === 0) return matches;
  const own = (scope as Partial<Element>).shadowRoot;
  if (own) {
    // The scope's own shadow tree comes first: it is rendered in place of the scope's children.
    return [...queryDeep(own, selector), ...mergeShadows(matches, roots.slice(1), selector)];
  }
  return mergeShadows(matches, roots, selector);
}

/** Node.DOCUMENT_POSITION_PRECEDING. */
const PRECEDING = 2;

/** `matches` (tree order) with each root's deep matches inserted right after its host's place. */
function mergeShadows(matches: Element[], roots: ShadowRoot[], selector: string): Element[] {
  const out: Element[] = [];
  let next = 0;
  for (const root of roots) {
    const host = root.host;
    // Matches up to and including the host come before its shadow tree; its descendants after.
    while (
      next < matches.length &&
      (matches[next] === host ||
        (host.compareDocumentPosition(matches[next]) & PRECEDING) !== 0)
    ) {
      out.push(matches[next++]);
    }
    // Nested roots inside this one are found by the recursive call, not listed in `roots`.
    out.push(...queryDeep(root, selector));
  }
  out.push(...matches.slice(next));
  return out;
}

/** Checks each step of a `>>>` selector; a bad one fails with BadSelector naming it. */
export function checkSteps(steps: string[]): void {
  if (steps.length < 2) return; // a plain selector fails where it is used, as before
  const probe = document.createDocumentFragment();
  steps.forEach((step, index) => {
    try {
      probe.querySelector(step);
    } catch (error) {
      const reason = (error as Error)?.message ?? String(error);
      throw new BadSelector(
        `part ${index + 1} of ${steps.length} (${quoteClip(step)}) is not valid CSS: ${
          clipForMessage(reason, MAX_QUOTE)
        }`,
      );
    }
  });
}

/** What a `>>>` selector reached: its matches, or the step whose hosts had no open shadow root. */
export interface Pierced {
  elements: Element[];
  /** Set when step `step` (from 2) found nothing because no host of the step before had one. */
  rootless?: { step: number; hostSelector: string; hosts: number };
}

/**
 * The elements `steps` (from pierceSteps) reach from `scope`: the first step matched as queryDeep
 * does, each next one inside the open shadow roots of the previous step's matches (and the shadow
 * roots below them), without duplicates, in composed-tree order.
 */
export function pierce(scope: Scope, steps: string[]): Pierced {
  let current = queryDeep(scope, steps[0]);
  for (let step = 1; step < steps.length; step++) {
    const roots = current.flatMap((host) => (host.shadowRoot ? [host.shadowRoot] : []));
    if (roots.length === 0) {
      if (current.length === 0) return { elements: [] };
      const hostSelector = steps[step - 1];
      return { elements: [], rootless: { step: step + 1, hostSelector, hosts: current.length } };
    }
    const seen = new Set<Element>();
    current = roots.flatMap((root) => queryDeep(root, steps[step])).filter((element) => {
      if (seen.has(element)) return false;
      seen.add(element);
      return true;
    });
  }
  return { elements: current };
}

/**
 * The element's children as rendered: its open shadow root's, a slot's assigned nodes. Not copied
 * (a live child list), for a walk that may stop early without paying for the rest: the
 * accessible-name walk (dom_names.ts) stops at CONTENT_CAP in an element with any number of
 * children.
 */
export function composedChildList(element: Element): ArrayLike<Node> {
  if (element.shadowRoot) return element.shadowRoot.childNodes;
  if (element instanceof HTMLSlotElement) return element.assignedNodes({ flatten: true });
  return element.childNodes;
}

/** composedChildList as an array of its own, for `for…of` walks (the same nodes, in order). */
export function composedChildren(element: Element): Node[] {
  return Array.from(composedChildList(element));
}

/**
 * Whether innerText tells the element's whole text: it hosts no open shadow root, none is below
 * it, and (inside a shadow tree) it holds no <slot>, whose assigned nodes innerText leaves out.
 */
function plainText(element: Element): boolean {
  if (shadowRootsIn(element).length > 0) return false;
  if (!(element.getRootNode() instanceof ShadowRoot)) return true;
  return !(element instanceof HTMLSlotElement) && element.querySelector("slot") === null;
}

/** Display values whose box flows in a line: their text joins the text around them. */
export const INLINE_DISPLAY = /^(inline|contents|ruby)/;

/** A run of text, or a number of required line breaks between runs. */
type Piece = string | number;

/** An element's rendered text (innerText; textContent for SVG and other non-HTML elements). */
export function renderedText(element: Element): string {
  return element instanceof HTMLElement ? element.innerText : element.textContent ?? "";
}

/**
 * Which parts of the walk a person cannot see: an element (its whole subtree left out) and, by its
 * element's style, a text node. Without it only `display: none` is left out (as innerText does).
 */
export interface Hiding {
  element(element: Element, style: CSSStyleDeclaration): boolean;
  ownText(style: CSSStyleDeclaration): boolean;
}

/** The node's parent in the composed tree: its slot when slotted, a shadow root's host. */
export function composedParent(node: Node): Element | null {
  const slot = (node as Partial<Element>).assignedSlot;
  if (slot) return slot;
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode;
  return parent instanceof ShadowRoot ? parent.host : null;
}

function collect(
  node: Node,
  out: Piece[],
  pieceText: (element: Element) => string,
  hiding?: Hiding,
  textHidden = false,
): void {
  if (node.nodeType === Node.TEXT_NODE) {
    if (!textHidden) out.push((node as Text).data.replace(/[ \t\n\r\f]+/g, " "));
    return;
  }
  if (!(node instanceof Element)) return;
  const style = getComputedStyle(node);
  if (style.display === "none" || hiding?.element(node, style)) return;
  const ownHidden = hiding?.ownText(style) ?? false;
  const inline = INLINE_DISPLAY.test(style.display);
  const breaks = inline || style.display === "table-cell" ? 0 : node.localName === "p" ? 2 : 1;
  if (breaks) out.push(breaks);
  if (plainText(node)) out.push(pieceText(node));
  else {
    for (const child of composedChildren(node)) collect(child, out, pieceText, hiding, ownHidden);
  }
  if (breaks) out.push(breaks);
  if (style.display === "table-cell") out.push("\t");
}

/** Joins pieces as innerText does: breaks between runs (the largest wins), spaces collapsed. */
function joinPieces(pieces: Piece[]): string {
  let text = "";
  let breaks = 0;
  for (const piece of pieces) {
    if (typeof piece === "number") {
      breaks = Math.max(breaks, piece);
      continue;
    }
    let run = piece;
    if (breaks > 0 && text !== "" && run.trim() !== "") {
      text = text.replace(/[ \t]+$/, "") + "\n".repeat(breaks);
      breaks = 0;
    }
    if (text === "" || /[ \n]$/.test(text)) run = run.replace(/^ +/, "");
    text += run;
  }
  return text.replace(/[ \t]+(?=\n|$)/g, "").replace(/\n+$/, "");
}

/**
 * The text an element shows, open shadow roots included in composed-tree order (a host's shadow
 * tree in place of its children, each <slot> replaced by the nodes assigned to it). Without an
 * open shadow root below it, this is exactly its innerText; with one, line breaks follow
 * innerText's rules for blocks and paragraphs closely but not exactly, and `pieceText` (default
 * innerText) gives the text of each part of the walk with no shadow root or slot in it. With
 * `hiding`, the walk also leaves out what it says a person cannot see.
 */
export function composedText(
  element: Element,
  pieceText: (element: Element) => string = renderedText,
  hiding?: Hiding,
): string {
  if (plainText(element)) return renderedText(element);
  const pieces: Piece[] = [];
  const textHidden = hiding?.ownText(getComputedStyle(element)) ?? false;
  for (const child of composedChildren(element)) {
    collect(child, pieces, pieceText, hiding, textHidden);
  }
  return joinPieces(pieces);
}
