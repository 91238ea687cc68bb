/**
 * Finding and describing elements for the page-side DOM kit: the one CSS lookup every operation
 * shares (with its INVALID_SELECTOR / ELEMENT_NOT_FOUND failures) and the compact description
 * browser_query_elements returns. Searches the top document only (not iframes or shadow roots).
 */
import type { HubErrorCode } from "../../../protocol/errors.ts";
import type { ElementInfo, KitError } from "./dom_kit_types.ts";

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
  return fail(
    "INVALID_SELECTOR",
    `"${selector}" is not a valid CSS selector: ${(error as Error)?.message ?? error}`,
  );
}

/** Every element matching `selector`, in document order. */
export function findAll(selector: string): Element[] {
  try {
    return [...document.querySelectorAll(selector)];
  } catch (error) {
    throw invalidSelector(selector, error);
  }
}

/** The first element matching `selector`; fails when there is none. */
export function findFirst(selector: string): Element {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch (error) {
    throw invalidSelector(selector, error);
  }
  if (element) return element;
  throw fail(
    "ELEMENT_NOT_FOUND",
    `No element matches "${selector}" on ${location.href}. See what is there with ` +
      "browser_query_elements or browser_get_page_text; if the element appears later, wait " +
      "for it with browser_wait_for_element.",
  );
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

/** An element as browser_query_elements describes it. */
export function describeElement(element: Element, index: number): ElementInfo {
  const rect = element.getBoundingClientRect();
  return {
    index,
    tag: tagOf(element),
    text: shortText(element),
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
