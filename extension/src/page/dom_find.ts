/**
 * Finding and describing elements for the page-side DOM kit: the one CSS lookup every operation
 * shares (with its INVALID_SELECTOR / ELEMENT_NOT_FOUND failures) and the compact description
 * browser_query_elements returns. Searches the top document and its open shadow roots (not iframes);
 * `host >>> inner` searches inside the hosts' open shadow roots (dom_deep.ts).
 */
import { clipForMessage, MAX_QUOTE, quoteClip } from "../../../protocol/clip.ts";
import type { HubErrorCode } from "../../../protocol/errors.ts";
import type { ElementInfo, KitError, KitState } from "./dom_kit_types.ts";
import { BadSelector, checkSteps, PIERCE, pierce, type Pierced, pierceSteps } from "./dom_deep.ts";
import type { KitRef, RefRegistry } from "./dom_refs.ts";
import { staleRefMessage } from "../../../protocol/browser_methods/refs.ts";

/**
 * A failure an operation reports to the caller: a plain Error named "KitFailure" whose `code`
 * becomes the tool's error code. The worker adds the code's category and retryable flag
 * (`kitFailure` in dom_call.ts), so the kit carries no error table.
 */
export type KitFailure = Error & KitError;

export function fail(code: HubErrorCode, message: string): KitFailure {
  return Object.assign(new Error(message), { name: "KitFailure", code });
}

/** Whether `error` is a failure an operation reported with `fail`. */
export function isKitFailure(error: unknown): error is KitFailure {
  return error instanceof Error && error.name === "KitFailure" &&
    typeof (error as Partial<KitError>).code === "string";
}

/** Longest text or attribute value in an element's description. */
export const DESCRIBE_MAX = 200;

/** Attributes an element's description carries, when the element has them. */
export const DESCRIBED_ATTRIBUTES = [
  "id",
  "class",
  "name",
  "type",
  "href",
  "src",
  "value",
  "placeholder",
  "aria-label",
  "role",
  "title",
  "alt",
] as const;

/** Whitespace collapsed and trimmed, cut to `max` characters with an ellipsis. */
export function clip(text: string, max = DESCRIBE_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1) + "…";
}

/** The present attributes among DESCRIBED_ATTRIBUTES, each value clipped. */
export function pickAttributes(read: (name: string) => string | null): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of DESCRIBED_ATTRIBUTES) {
    const value = read(name);
    if (value !== null) picked[name] = clip(value);
  }
  return picked;
}

function invalidSelector(selector: string, error: unknown): KitFailure {
  if (error instanceof BadSelector) {
    return fail(
      "INVALID_SELECTOR",
      `${quoteClip(selector)} is not a valid selector: ${
        clipForMessage(error.message, MAX_QUOTE * 3)
      }. Write "host >>> inner" to search ` +
        "inside the open shadow root of the elements host matches.",
    );
  }
  return fail(
    "INVALID_SELECTOR",
    `${quoteClip(selector)} is not a valid CSS selector: ${
      clipForMessage(String((error as Error)?.message ?? error), MAX_QUOTE * 2)
    }`,
  );
}

/**
 * What `selector` reaches in the document: CSS matched in the document and in every open shadow
 * root (composed-tree order), with `host >>> inner` searching inside the hosts' shadow roots.
 * Fails with INVALID_SELECTOR for a bad selector or a bad `>>>` part.
 */
export function resolveSelector(selector: string, scope: Element | Document = document): Pierced {
  try {
    const steps = pierceSteps(selector);
    checkSteps(steps);
    return pierce(scope, steps);
  } catch (error) {
    throw invalidSelector(selector, error);
  }
}

/** ELEMENT_NOT_FOUND for a `>>>` step whose hosts have no open shadow root. */
function rootlessFailure(selector: string, rootless: NonNullable<Pierced["rootless"]>) {
  const { hostSelector, hosts } = rootless;
  const matched = hosts === 1 ? "the element" : `the ${hosts} elements`;
  return fail(
    "ELEMENT_NOT_FOUND",
    `${quoteClip(selector)}: ${matched} ${quoteClip(hostSelector)} matches on ${location.href} ` +
      `${hosts === 1 ? "has" : "have"} no open shadow root to search in. A closed shadow root ` +
      "cannot be searched; a host whose component has not started yet has none either (wait " +
      "for it with browser_wait_for_element).",
  );
}

/**
 * Every element matching `selector`, in composed-tree order (document order on a page without
 * shadow roots). Fails when a `>>>` step reaches hosts without an open shadow root.
 */
export function findAll(selector: string, scope: Element | Document = document): Element[] {
  const { elements, rootless } = resolveSelector(selector, scope);
  if (elements.length === 0 && rootless) throw rootlessFailure(selector, rootless);
  return elements;
}

/**
 * The first element matching `selector`; fails when there is none. A plain selector takes the
 * document's first match (as before shadow roots were searched) and, when the document has none,
 * the first match inside open shadow roots; a `>>>` selector its first match in findAll's order.
 */
export function findFirst(selector: string): Element {
  let element: Element | null | undefined;
  if (!selector.includes(PIERCE)) {
    try {
      element = document.querySelector(selector);
    } catch (error) {
      throw invalidSelector(selector, error);
    }
  }
  element ??= findAll(selector)[0];
  if (element) return element;
  throw fail(
    "ELEMENT_NOT_FOUND",
    `No element matches ${quoteClip(selector)} on ${location.href}. See what is there with ` +
      "browser_query_elements or browser_get_page_text; if the element appears later, wait " +
      "for it with browser_wait_for_element.",
  );
}

/** An operation's element: a ref the worker resolved to this document, or a CSS selector. */
export interface Targeted {
  ref?: KitRef;
  selector?: string;
}

/** The element of `ref` in `registry`, or REF_STALE. */
export function elementOfRef(registry: RefRegistry, ref: KitRef): Element {
  const element = registry.elementOf(ref);
  if (element) return element;
  throw fail("REF_STALE", staleRefMessage(ref.text));
}

/**
 * The element `args` names: its ref's element (REF_STALE when it is gone) or the selector's first
 * match (findFirst). The method's input has exactly one of them (protocol/browser_methods/dom.ts).
 */
export function findTarget(args: Targeted, refs: RefRegistry): Element {
  if (args.ref) return elementOfRef(refs, args.ref);
  return findFirst(args.selector ?? "");
}

/** How messages name the element of `args`: `ref "e12"` or the quoted selector. */
export function targetLabel(args: Targeted): string {
  return args.ref ? `ref "${args.ref.text}"` : quoteClip(args.selector ?? "");
}

export const tagOf = (element: Element) => element.tagName.toLowerCase();

/** Visible text (innerText for HTML elements), clipped. */
export function shortText(element: Element): string {
  const raw = element instanceof HTMLElement ? element.innerText : element.textContent;
  return clip(raw ?? "");
}

/** Rendered with a non-empty box and not `visibility: hidden` (opacity does not count). */
export function isVisible(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return false;
  return element.checkVisibility({ visibilityProperty: true });
}

function attributesOf(element: Element): Record<string, string | boolean> {
  const attributes: Record<string, string | boolean> = pickAttributes((name) =>
    element.getAttribute(name)
  );
  const live = element as Partial<HTMLInputElement & HTMLOptionElement & HTMLAnchorElement>;
  const checkable = element instanceof HTMLInputElement &&
    /^(checkbox|radio)$/.test(element.type);
  // Live state beats the markup: what the field holds now, where a link really goes.
  if (
    (element instanceof HTMLInputElement && !checkable) ||
    element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement
  ) {
    if (element.value !== "" || "value" in attributes) attributes.value = clip(element.value);
  }
  if (typeof live.href === "string" && "href" in attributes) attributes.href = clip(live.href);
  if (checkable) attributes.checked = (element as HTMLInputElement).checked;
  if (element instanceof HTMLOptionElement) attributes.selected = element.selected;
  if (live.disabled === true || element.hasAttribute("disabled")) attributes.disabled = true;
  return attributes;
}

/**
 * An element as browser_query_elements describes it; with `state`, with its ref; its text by
 * `textOf` (the reading operations pass seenText, dom_read.ts: hidden parts left out).
 */
export function describeElement(
  element: Element,
  index: number,
  state?: KitState,
  textOf: (element: Element) => string = shortText,
): ElementInfo {
  const rect = element.getBoundingClientRect();
  return {
    index,
    ...(state ? { ref: state.refs.refOf(element, state.scheme) } : {}),
    tag: tagOf(element),
    text: textOf(element),
    attributes: attributesOf(element),
    visible: isVisible(element),
    rect: {
      x: Math.round(rect.x),
      y: Math.round(rect.y),
      width: Math.round(rect.width),
      height: Math.round(rect.height),
    },
  };
}
