/**
 * The `<label>`s of a form control, as `el.labels` gives them, found without its cost (one
 * `label[for]` query per tree and task), and the id lookups of the accessible-name computation
 * (dom_names.ts) in the element's own tree (document or shadow root).
 */

/** The tree of `el` for id lookups (a Document or ShadowRoot both have getElementById). */
export function byId(el: Element, id: string): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  return typeof root.getElementById === "function" ? root.getElementById(id) : null;
}

/** The elements a `<label>` can label (form-associated custom elements aside). */
const LABELABLE = "button,input:not([type=hidden]),meter,output,progress,select,textarea";

/**
 * `label[for]` elements by their `for` value, per tree (document or shadow root), kept until the
 * current task's microtasks run: one query per tree for a whole snapshot, where reading `labels`
 * of each field searched the whole tree again for each field the first time. Callers do not change
 * the page between the calls of one synchronous run.
 */
let forLabels: WeakMap<Node, Map<string, Element[]>> | undefined;

function labelsFor(root: Document | ShadowRoot, id: string): Element[] | undefined {
  if (!forLabels) {
    forLabels = new WeakMap();
    queueMicrotask(() => (forLabels = undefined));
  }
  let map = forLabels.get(root);
  if (!map) {
    map = new Map();
    for (const label of root.querySelectorAll("label[for]")) {
      const key = label.getAttribute("for")!;
      const list = map.get(key);
      if (list) list.push(label);
      else map.set(key, [label]);
    }
    forLabels.set(root, map);
  }
  return map.get(id);
}

/**
 * What `el.labels` gives, in tree order, without its cost: the `label[for]` naming its id (when it
 * is the first element with that id in its tree) and a wrapping `<label>` without `for` whose first
 * labelable descendant it is.
 */
export function labelsOf(el: Element): Element[] {
  const out: Element[] = [];
  const id = el.id;
  if (id) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const byFor = typeof root.querySelectorAll === "function" ? labelsFor(root, id) : undefined;
    if (byFor && byId(el, id) === el) out.push(...byFor);
  }
  const wrapping = el.parentElement?.closest("label");
  if (
    wrapping && !wrapping.hasAttribute("for") && !out.includes(wrapping) &&
    wrapping.querySelector(LABELABLE) === el
  ) {
    out.push(wrapping);
    // `labels` is in tree order; a wrapping label comes before the for= labels after it.
    out.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }
  return out;
}

/** A label Chromium does not read: not rendered, `visibility: hidden`, or under aria-hidden. */
export function hiddenLabel(label: Element): boolean {
  return !label.checkVisibility({ visibilityProperty: true }) ||
    label.closest("[aria-hidden=true]") !== null;
}
