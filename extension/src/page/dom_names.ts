/**
 * The accessible name of an element, as browser_snapshot writes it, computed in the page kit from
 * the DOM alone: a subset of the accessible-name computation (aria-labelledby, aria-label, labels,
 * alt, caption, legend, button values, placeholder, contents, title), whitespace collapsed, not
 * cut. The role function is a parameter (`accessibleName(el, role, roleOf)`): roles need names
 * too, so dom_roles.ts binds its `roleOf` here and exports `nameOf`, which callers use.
 * tests/e2e/browser_roles_test.ts checks names against Chromium's accessibility tree.
 *
 * Cost: contents are walked only for roles named from them (dom_name_roles.ts), at most
 * CONTENT_CAP, with one `getComputedStyle` per element the walk descends into; labels are found
 * with one `label[for]` query per tree and task (dom_labels.ts); generated text
 * (dom_generated_text.ts) is read only for a name that is empty without it.
 */
import { gridRow } from "./dom_aria_roles.ts";
import { composedChildList, INLINE_DISPLAY } from "./dom_deep.ts";
import { generatedText } from "./dom_generated_text.ts";
import { byId, hiddenLabel, labelsOf } from "./dom_labels.ts";
import { namedFromContent, NO_CONTENT } from "./dom_name_roles.ts";
import { inkless, isHiddenFromPeople, type PageFacts, seeThrough } from "./visibility.ts";
import { hiddenInPage } from "./visible_text.ts";

/** How the walk finds an element's role (dom_roles.ts's `roleOf`). */
export type RoleOf = (el: Element) => string;

/**
 * HTML whitespace (space, tab, line breaks, form feed) collapsed to single spaces, trimmed, as
 * Chromium does for names; no-break spaces stay.
 */
export function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, " ").trim();
}

interface Walk {
  /** Elements on the current path (and the root), so a label holding its control ends. */
  visited: Set<Element>;
  /** Inside an aria-labelledby traversal: no labelledby is followed again. */
  labelledBy: boolean;
  /** Inside a hidden element referenced by aria-labelledby: hidden content counts. */
  hiddenToo: boolean;
  /** What this name's walk has read so far, shared by its nested walks (see CONTENT_CAP). */
  read: { chars: number; elements: number };
  /** Read `::before`/`::after` text too (the second try of a name that came out empty). */
  generated: boolean;
  /** The roles of the elements the walk meets. */
  roleOf: RoleOf;
  /**
   * Set: the name is built only from what people see on this page (accessibleName's `seen`).
   */
  seen?: PageFacts;
}

/**
 * Where a walk through contents stops: after this much text (not counting the whitespace around
 * each text node) or this many elements. Far beyond what an outline line shows (NAME_MAX_CHARS),
 * and it keeps an element that wraps a whole app in `role="button"` from costing a page walk.
 */
export const CONTENT_CAP = { chars: 1_000, elements: 1_000 };

/**
 * The accessible name of `el` with role `role`, the roles of other elements from `roleOf`:
 * whitespace collapsed, not cut. With `seen` (the page's facts, visibility.ts), text hidden from
 * people is left out (browser_snapshot without includeHidden): hidden descendants
 * (isHiddenFromPeople: clipped "screen-reader only" text too), and aria-labelledby targets,
 * labels, legends and captions hidden themselves; attributes (aria-label, alt, title…) stay.
 */
export function accessibleName(
  el: Element,
  role: string,
  roleOf: RoleOf,
  seen?: PageFacts,
): string {
  const name = collapse(nameStep(el, role, newWalk(el, false, roleOf, seen), "root"));
  // Generated text (`::before`/`::after` content) costs a style computation per element and
  // pseudo-element, so it is read only for a name that is empty without it: an icon-only
  // button, or one whose label is all CSS.
  if (name !== "" || !(namedFromContent(role) || gridRow(el, role))) return name;
  return collapse(nameStep(el, role, newWalk(el, true, roleOf, seen), "root"));
}

function newWalk(el: Element, generated: boolean, roleOf: RoleOf, seen?: PageFacts): Walk {
  return {
    visited: new Set([el]),
    labelledBy: false,
    hiddenToo: false,
    read: { chars: 0, elements: 0 },
    generated,
    roleOf,
    ...(seen ? { seen } : {}),
  };
}

/** Whether the walk leaves `el` out: it shows only what people see, and `el` is hidden. */
const unseen = (el: Element, walk: Walk) => walk.seen !== undefined && hiddenInPage(el, walk.seen);

/**
 * How an element takes part in a name: the element being named, one that aria-labelledby refers
 * to, or a descendant of either.
 */
type Part = "root" | "referenced" | "descendant";

/** The accname steps for one element. */
function nameStep(el: Element, role: string, walk: Walk, part: Part): string {
  const root = part === "root";
  // 2B: aria-labelledby, not followed again inside such a traversal.
  if (!walk.labelledBy) {
    const referenced = labelledByName(el, walk);
    if (referenced) return referenced;
  }
  // 2C: an embedded control inside another element's label gives its value.
  if (!root) {
    const embedded = embeddedValue(el, role);
    if (embedded !== undefined) return embedded;
  }
  // 2D: aria-label.
  const label = el.getAttribute("aria-label");
  if (label && label.trim()) return label;
  // 2E: the host language's own sources (labels, alt, caption, legend, value…).
  const native = nativeName(el, role, walk);
  if (native) return native;
  // An image's alt names it even when empty (its title is then no name).
  if (el.tagName === "IMG" && el.hasAttribute("alt")) return "";
  // 2F: contents: of roles named by them, of what aria-labelledby refers to, and of descendants
  // (but for containers, which Chromium never reads for a name: a menu inside a menuitem).
  if (
    part === "referenced" || (part === "descendant" && !NO_CONTENT.has(role)) ||
    namedFromContent(role) || gridRow(el, role)
  ) {
    // Kept as it is (the root collapses it): `<span>a </span><span>b</span>` reads "a b".
    const ownText = !root || walk.hiddenToo || !inkless(getComputedStyle(el));
    const text = contentText(el, walk, ownText);
    if (collapse(text)) return text;
  }
  // 2I: the tooltip; Chromium names no generic element by it (it is its description then).
  if (root && (role === "generic" || role === "none")) return "";
  return el.getAttribute("title") ?? "";
}

/**
 * The names of the elements `el`'s aria-labelledby refers to (in its tree), joined and collapsed;
 * hidden ones count. "" when there are none.
 */
function labelledByName(el: Element, walk: Walk): string {
  const ids = el.getAttribute("aria-labelledby")?.trim();
  if (!ids) return "";
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = byId(el, id);
    if (!target || unseen(target, walk)) continue;
    const hidden = !target.checkVisibility?.() || target.closest("[aria-hidden=true]") !== null;
    const inner: Walk = {
      visited: new Set([...walk.visited, target]),
      labelledBy: true,
      hiddenToo: walk.hiddenToo || hidden,
      read: walk.read,
      generated: walk.generated,
      roleOf: walk.roleOf,
      ...(walk.seen ? { seen: walk.seen } : {}),
    };
    parts.push(nameStep(target, walk.roleOf(target), inner, "referenced"));
  }
  return collapse(parts.join(" "));
}

/** The value a control gives when it sits inside the label of another element. */
function embeddedValue(el: Element, role: string): string | undefined {
  switch (role) {
    case "textbox":
    case "searchbox":
      return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
        ? el.value
        : el.textContent ?? "";
    case "combobox":
    case "listbox":
      if (el instanceof HTMLSelectElement) {
        return [...el.selectedOptions].map((option) => option.label).join(" ");
      }
      if (el instanceof HTMLInputElement) return el.value;
      return undefined;
    case "slider":
    case "spinbutton":
      if (el instanceof HTMLInputElement) return el.value;
      return el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow") ?? "";
  }
  return undefined;
}

/** Input types whose value is their text: buttons. */
const DEFAULT_BUTTON_NAMES: Record<string, string> = { submit: "Submit", reset: "Reset" };

/** Names from the HTML itself (step 2E), or "" when the element has none. */
function nativeName(el: Element, role: string, walk: Walk): string {
  const tag = el.tagName;
  if (el instanceof HTMLInputElement) return inputName(el, role, walk);
  switch (tag) {
    case "TEXTAREA": {
      const fromLabels = labelsName(el, walk);
      if (fromLabels) return fromLabels;
      if (el.getAttribute("title")?.trim()) return "";
      return el.getAttribute("placeholder") ?? "";
    }
    case "SELECT":
    case "BUTTON":
    case "METER":
    case "PROGRESS":
    case "OUTPUT":
      return labelsName(el, walk);
    case "IMG":
    case "AREA":
      return el.getAttribute("alt") ?? "";
    case "FIELDSET": {
      const legend = el.querySelector(":scope > legend");
      return legend && !unseen(legend, walk) ? contentText(legend, walk) : "";
    }
    case "TABLE": {
      const caption = (el as HTMLTableElement).caption;
      return caption && !unseen(caption, walk) ? contentText(caption, walk) : "";
    }
    case "OPTION":
    case "OPTGROUP":
      return el.getAttribute("label") ?? "";
    case "svg": {
      const title = el.querySelector(":scope > title");
      return title?.textContent ?? "";
    }
  }
  return "";
}

/** An `<input>`'s name from the HTML: labels, a button's value or default, alt, placeholder. */
function inputName(el: HTMLInputElement, role: string, walk: Walk): string {
  const type = el.type;
  if (type === "button" || type === "submit" || type === "reset") {
    const fromLabels = labelsName(el, walk);
    if (fromLabels) return fromLabels;
    if (el.hasAttribute("value")) return el.value;
    return DEFAULT_BUTTON_NAMES[type] ?? "";
  }
  if (type === "image") {
    const alt = el.getAttribute("alt");
    if (alt?.trim()) return alt;
    if (el.hasAttribute("value")) return el.value;
    return el.getAttribute("title") || "Submit";
  }
  const fromLabels = labelsName(el, walk);
  if (fromLabels) return fromLabels;
  if (
    role === "textbox" || role === "searchbox" || role === "combobox" || role === "spinbutton"
  ) {
    if (el.getAttribute("title")?.trim()) return "";
    return el.getAttribute("placeholder") ?? "";
  }
  return "";
}

/** The text of a labelable element's `<label>`s (`labelsOf`). */
function labelsName(el: Element, walk: Walk): string {
  const labels = labelsOf(el);
  if (labels.length === 0) return "";
  const parts: string[] = [];
  for (const label of labels) {
    if (walk.visited.has(label)) continue;
    if (!walk.hiddenToo && hiddenLabel(label)) continue;
    if (unseen(label, walk)) continue;
    walk.visited.add(label);
    parts.push(contentText(label, walk));
    walk.visited.delete(label);
  }
  return collapse(parts.join(" "));
}

/**
 * The text of `el`'s contents (2F): each child's text alternative, blocks set apart, with the
 * text of `::before`/`::after` when `walk.generated` (see nameOf). `ownText` is false when `el` is
 * `visibility: hidden` or its text has no ink (visibility.ts inkless: transparent, a font under
 * 3 px): its text nodes are left out (but for spaces), its visible children are not.
 *
 * Unlike Chromium, names leave out what the page text leaves out for being invisible: a child
 * under 0.05 opacity (seeThrough) and text without ink, so a name cannot say what people do not
 * see there. Without `walk.seen`, clipped text is kept, as Chromium keeps it: a 1-pixel or
 * off-screen "screen-reader only" span is the usual way to name an icon button. With it (the
 * snapshot without includeHidden), every part hidden from people (isHiddenFromPeople) is left
 * out too, so hidden instructions cannot ride in a name; such an icon button is then unnamed.
 * aria-label stays either way: names stay page-controlled, as docs/browser_tools.md says.
 */
function contentText(el: Element, walk: Walk, ownText = true): string {
  let out = walk.generated ? generatedText(el, "::before") : "";
  const children = composedChildList(el);
  const read = walk.read;
  for (let i = 0; i < children.length; i++) {
    if (read.chars > CONTENT_CAP.chars || read.elements > CONTENT_CAP.elements) break;
    const node = children[i];
    if (node.nodeType === Node.TEXT_NODE) {
      const data = (node as Text).data;
      if (ownText) {
        out += data;
        read.chars += data.trim().length;
      } else if (!/\S/.test(data)) out += data; // a space still parts the words around it
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const child = node as Element;
    if (walk.visited.has(child)) continue;
    read.elements++;
    let block = false;
    let childText = true;
    if (!walk.hiddenToo) {
      if (child.getAttribute("aria-hidden") === "true") continue;
      const style = getComputedStyle(child);
      if (style.display === "none" || seeThrough(style)) continue;
      if (walk.seen && isHiddenFromPeople(child, style, walk.seen)) continue;
      childText = style.visibility === "visible" && !inkless(style);
      if (!childText && !child.firstElementChild) continue;
      block = !INLINE_DISPLAY.test(style.display);
    }
    if (child.tagName === "BR") {
      out += "\n";
      continue;
    }
    walk.visited.add(child);
    const text = childText
      ? nameStep(child, walk.roleOf(child), walk, "descendant")
      : contentText(child, walk, false); // only its visible descendants
    walk.visited.delete(child);
    out += block ? ` ${text} ` : text;
  }
  return walk.generated ? out + generatedText(el, "::after") : out;
}
