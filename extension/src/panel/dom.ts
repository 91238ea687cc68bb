/**
 * A tiny DOM helper for the side panel: `h("button", { class: "x", onclick }, "Allow")` builds an
 * element; `reconcile` keeps a keyed list of elements in place, so a state push updates what is
 * there instead of rebuilding it (focus, open `<details>` and half-made choices survive).
 *
 * Every text it puts on screen (text children, `setText`, and the attributes a person sees or
 * hears: title, aria-label, placeholder, alt) goes through `shown`, so a hidden character in a
 * plugin's name, title or error, or an agent's parameter, shows as an escape like `⟨U+202E⟩`.
 */
import { visibleSegments, visibleText } from "../../../protocol/visible_text.ts";

export type Child = Node | string | number | false | null | undefined;

type Attrs = Record<string, unknown>;

/** Text as the panel shows it: hidden characters escaped, line breaks and tabs kept. */
export function shown(text: string): string {
  return visibleText(text, { lines: true });
}

/** Attributes whose value a person sees (a tooltip, a placeholder) or hears (a screen reader). */
const SHOWN_ATTRIBUTES = new Set(["title", "aria-label", "aria-description", "placeholder", "alt"]);

/**
 * Text as nodes: plain runs as text, each escape this panel made as a highlighted
 * `<span class="escape">` (text that only looks like an escape stays plain).
 */
export function textNodes(text: string, lines = true): Node[] {
  return visibleSegments(text, { lines }).map((s) => {
    if (!s.escaped) return document.createTextNode(s.text);
    const mark = document.createElement("span");
    mark.className = "escape";
    mark.title = "A character that does not show, or that reorders text, was here";
    mark.textContent = s.text;
    return mark;
  });
}

/** Sets an attribute, escaping it when it is one a person sees or hears. */
export function setShownAttribute(el: Element, name: string, value: string): void {
  el.setAttribute(name, SHOWN_ATTRIBUTES.has(name) ? shown(value) : value);
}

/** Creates `<tag>` with attributes (`on*` functions become listeners; false/undefined are skipped). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value as EventListener);
    } else if (name === "value" && "value" in el) {
      (el as HTMLInputElement).value = String(value);
    } else {
      setShownAttribute(el, name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children (nested arrays flattened, empty ones skipped). */
export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    if (child instanceof Node) parent.appendChild(child);
    else for (const node of textNodes(String(child))) parent.appendChild(node);
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Sets an element's text (escaped, see `shown`) only when it changed (keeps screen readers quiet). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== shown(text)) el.replaceChildren(...textNodes(text));
}

/** A view of one list item: its element, and how to bring it up to date. */
export interface Keyed<T> {
  el: HTMLElement;
  update(item: T): void;
}

/**
 * Makes `container`'s children the views of `items`, in order: new keys get `create`, existing
 * ones `update`, missing ones are removed (`onRemove` first). Returns the views by key.
 */
export function reconcile<T>(
  container: Element,
  views: Map<string, Keyed<T>>,
  items: T[],
  key: (item: T) => string,
  create: (item: T) => Keyed<T>,
  onRemove?: (key: string, view: Keyed<T>) => void,
): Map<string, Keyed<T>> {
  const wanted = new Set(items.map(key));
  for (const [k, view] of views) {
    if (wanted.has(k)) continue;
    onRemove?.(k, view);
    view.el.remove();
    views.delete(k);
  }
  let previous: Element | null = null;
  for (const item of items) {
    const k = key(item);
    let view = views.get(k);
    if (view) view.update(item);
    else {
      view = create(item);
      view.update(item);
      views.set(k, view);
    }
    const next: ChildNode | null = previous ? previous.nextSibling : container.firstChild;
    if (next !== view.el) container.insertBefore(view.el, next);
    previous = view.el;
  }
  return views;
}

/** An id unique in this document, for label/aria wiring. */
let counter = 0;
export function uid(prefix: string): string {
  return `${prefix}-${++counter}`;
}
