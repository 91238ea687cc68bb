/**
 * The accessibility role, accessible name and states of an element, as browser_snapshot writes
 * them, computed in the page kit from the DOM alone (no debugger: see
 * docs/decisions/063-refs-across-frames.md). Roles follow HTML-AAM and WAI-ARIA with Chromium's
 * role names, lowercased (`img`, never `image`; `generic` when an element has no role of its
 * own); names follow a subset of the accessible-name computation (aria-labelledby, aria-label,
 * labels, alt, caption, legend, button values, placeholder, contents, title); states are read
 * live (values, checked, open details). tests/e2e/browser_roles_test.ts checks all three against
 * Chromium's own accessibility tree, and lists where the kit differs on purpose (text-level roles
 * and scoped headers are generic, layout tables are tables, generated text is read only for a
 * name that is empty without it, ElementInternals roles cannot be read).
 *
 * Cost: `roleOf` reads the tag and a few attributes; `nameOf` walks contents only for roles named
 * from their contents (at most CONTENT_CAP), with one `getComputedStyle` per element it descends
 * into; labels are found with one `label[for]` query per tree and task (`labelsFor`). */
import { NAME_MAX_CHARS } from "../../../protocol/browser_methods/dom_limits.ts";

// ---------------------------------------------------------------------------------------------
// quoting

/** Control characters (C0, DEL, C1) and whitespace runs, each folded to one space. */
// deno-lint-ignore no-control-regex -- folding control characters is the point
const FOLD = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * `text` as one quoted outline value: `\` and `"` escaped, line breaks, tabs and other control
 * characters folded to a space, whitespace runs collapsed, and cut to `max` characters with a
 * trailing `…` (which counts in `max`). The page cannot end the quote or start a new line.
 */
export function quoted(text: string, max: number = NAME_MAX_CHARS): string {
  // A huge value (a long textarea) is read only as far as the cut can reach.
  const reach = 4 * max + 64;
  const long = text.length > reach;
  let folded = (long ? text.slice(0, reach) : text).replace(FOLD, " ");
  if (folded.length > max || long) {
    let end = Math.max(0, Math.min(max - 1, folded.length));
    const last = folded.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    folded = folded.slice(0, end) + "…";
  }
  return `"${folded.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

/**
 * HTML whitespace (space, tab, line breaks, form feed) collapsed to single spaces, trimmed, as
 * Chromium does for names; no-break spaces stay.
 */
export function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, " ").trim();
}

// ---------------------------------------------------------------------------------------------
// roles

/**
 * WAI-ARIA roles an author may write in `role`, by the name Chromium reports (lowercased; `image`
 * written `img`). Abstract roles and unknown tokens are skipped.
 */
const ARIA_ROLES: Record<string, string> = Object.fromEntries(
  [
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "blockquote",
    "button",
    "caption",
    "cell",
    "checkbox",
    "code",
    "columnheader",
    "combobox",
    "comment",
    "complementary",
    "contentinfo",
    "definition",
    "deletion",
    "dialog",
    "document",
    "emphasis",
    "feed",
    "figure",
    "form",
    "generic",
    "grid",
    "gridcell",
    "group",
    "heading",
    "img",
    "insertion",
    "link",
    "list",
    "listbox",
    "listitem",
    "log",
    "main",
    "mark",
    "marquee",
    "math",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "meter",
    "navigation",
    "none",
    "note",
    "option",
    "paragraph",
    "progressbar",
    "radio",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "searchbox",
    "separator",
    "slider",
    "spinbutton",
    "status",
    "strong",
    "subscript",
    "suggestion",
    "superscript",
    "switch",
    "tab",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "textbox",
    "time",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
    "treeitem",
  ].map((role) => [role, role]).concat([
    ["image", "img"],
    ["presentation", "none"],
    ["directory", "list"],
  ]),
);

/** The role written in a `role` attribute: its first known token, or undefined. */
export function explicitRole(value: string | null): string | undefined {
  if (!value) return undefined;
  for (const token of value.trim().toLowerCase().split(/\s+/)) {
    const role = ARIA_ROLES[token];
    if (role) return role;
  }
  return undefined;
}

/** Roles of `<input type=…>` (Chromium's names); text-like types are `textbox`. */
const INPUT_ROLES: Record<string, string> = {
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  file: "button",
  checkbox: "checkbox",
  radio: "radio",
  range: "slider",
  number: "spinbutton",
  search: "searchbox",
  color: "colorwell",
  date: "date",
  "datetime-local": "datetime",
  month: "datetime",
  week: "datetime",
  time: "inputtime",
  hidden: "none",
};

/** Input types that become a `combobox` with a `list` (a datalist of suggestions). */
const LIST_INPUTS = new Set(["text", "search", "tel", "url", "email"]);

/**
 * Elements whose role does not depend on where they are or what they hold. (thead, tbody and
 * tfoot are generic: Chromium leaves their rowgroup out of its tree.)
 */
const TAG_ROLES: Record<string, string> = {
  ARTICLE: "article",
  BUTTON: "button",
  DATALIST: "listbox",
  DETAILS: "group",
  DIALOG: "dialog",
  FIELDSET: "group",
  FIGURE: "figure",
  FRAME: "iframe",
  H1: "heading",
  H2: "heading",
  H3: "heading",
  H4: "heading",
  H5: "heading",
  H6: "heading",
  HR: "separator",
  IFRAME: "iframe",
  MAIN: "main",
  MATH: "math",
  MENU: "list",
  METER: "meter",
  NAV: "navigation",
  OL: "list",
  OPTGROUP: "group",
  OPTION: "option",
  OUTPUT: "status",
  P: "paragraph",
  PROGRESS: "progressbar",
  SEARCH: "search",
  TABLE: "table",
  TEXTAREA: "textbox",
  UL: "list",
  VIDEO: "video",
  AUDIO: "audio",
  HGROUP: "group",
  ADDRESS: "group",
};

/** Roles that take a tabindex/focus: `none`/`presentation` on a focusable element is ignored. */
function focusable(el: Element): boolean {
  if (el.hasAttribute("tabindex")) return true;
  if ((el as HTMLElement).isContentEditable) return true;
  switch (el.tagName) {
    case "A":
    case "AREA":
      return el.hasAttribute("href");
    case "BUTTON":
    case "INPUT":
    case "SELECT":
    case "TEXTAREA":
      return !(el as HTMLButtonElement).disabled;
    case "IFRAME":
    case "SUMMARY":
      return true;
  }
  return false;
}

/** Landmark scopes: a header/footer inside one is no banner/contentinfo. */
const SECTIONING = "article,aside,main,nav,section," +
  "[role=article],[role=complementary],[role=main],[role=navigation],[role=region]";

/** Whether `el` has an author-given name source attribute (aria-label, aria-labelledby, title). */
function hasNameAttribute(el: Element): boolean {
  return (
    !!el.getAttribute("aria-label")?.trim() ||
    !!el.getAttribute("aria-labelledby")?.trim() ||
    !!el.getAttribute("title")?.trim()
  );
}

/**
 * Whether a sectioning element has a name (section → region, form → form, a nested aside →
 * complementary): from aria-labelledby (whose ids must exist), aria-label or title.
 */
function hasOwnName(el: Element): boolean {
  return hasNameAttribute(el) && nameOf(el, "region") !== "";
}

/**
 * The global ARIA attributes: `none`/`presentation` on an element with one is ignored (as on a
 * focusable one), the element keeps its own role.
 */
const GLOBAL_ARIA = [
  "aria-atomic",
  "aria-busy",
  "aria-controls",
  "aria-current",
  "aria-describedby",
  "aria-details",
  "aria-dropeffect",
  "aria-errormessage",
  "aria-flowto",
  "aria-grabbed",
  "aria-haspopup",
  "aria-invalid",
  "aria-keyshortcuts",
  "aria-label",
  "aria-labelledby",
  "aria-live",
  "aria-owns",
  "aria-relevant",
  "aria-roledescription",
];

/** Whether `role="none"` (or presentation) must be ignored on `el`. */
function presentationConflict(el: Element): boolean {
  return focusable(el) || GLOBAL_ARIA.some((name) => el.hasAttribute(name));
}

/** The table, grid or treegrid `el` is in (in its own tree), if any. */
function tableOf(el: Element): Element | null {
  return el.closest("table,[role=table],[role=grid],[role=treegrid]");
}

/** Whether `el` is a row of a grid or treegrid: named by its contents, as Chromium does. */
function gridRow(el: Element, role: string): boolean {
  if (role !== "row") return false;
  const role2 = explicitRole(tableOf(el)?.getAttribute("role") ?? null);
  return role2 === "grid" || role2 === "treegrid";
}

/** The role of `el` with no `role` attribute (HTML-AAM, Chromium's names). */
export function implicitRole(el: Element): string {
  const tag = el.tagName;
  const fixed = TAG_ROLES[tag];
  if (fixed) return fixed;
  switch (tag) {
    case "A":
    case "AREA":
      return el.hasAttribute("href") ? "link" : "generic";
    case "IMG": {
      const alt = el.getAttribute("alt");
      return alt === "" && !hasNameAttribute(el) ? "none" : "img";
    }
    case "INPUT": {
      const input = el as HTMLInputElement;
      const type = input.type;
      const role = INPUT_ROLES[type];
      if (LIST_INPUTS.has(type) && input.hasAttribute("list")) return "combobox";
      return role ?? "textbox";
    }
    case "SELECT": {
      const select = el as HTMLSelectElement;
      return select.multiple || select.size > 1 ? "listbox" : "combobox";
    }
    case "HEADER":
    case "FOOTER":
      if (el.parentElement?.closest(SECTIONING)) return "generic";
      return tag === "HEADER" ? "banner" : "contentinfo";
    case "ASIDE":
      // Inside another sectioning element an aside is complementary only with a name.
      return el.parentElement?.closest("article,aside,nav,section") && !hasOwnName(el)
        ? "generic"
        : "complementary";
    case "SECTION":
      return hasOwnName(el) ? "region" : "generic";
    case "FORM":
      return hasOwnName(el) ? "form" : "generic";
    case "SUMMARY": {
      const parent = el.parentElement;
      return parent?.tagName === "DETAILS" && parent.querySelector(":scope > summary") === el
        ? "disclosuretriangle"
        : "generic";
    }
    case "LI": {
      // The items of a list made presentational (role=none) are no items either.
      const list = el.parentElement;
      return list && /^(UL|OL|MENU)$/.test(list.tagName) && roleOf(list) === "none"
        ? "generic"
        : "listitem";
    }
    case "TR":
    case "TD":
    case "TH": {
      const table = tableOf(el);
      const role = table ? roleOf(table) : "table";
      // The rows and cells of a table made presentational (a layout table) are wrappers.
      if (role === "none") return "generic";
      if (tag === "TR") return "row";
      if (tag === "TH") return headerRole(el as HTMLTableCellElement);
      return role === "grid" || role === "treegrid" ? "gridcell" : "cell";
    }
    case "svg": // an image when named, else a drawing Chromium leaves out (svgroot)
      return hasNameAttribute(el) || el.querySelector(":scope > title") ? "img" : "generic";
    case "a": // SVG's <a> (SVG tag names keep their case)
      return el.hasAttribute("href") || el.hasAttribute("xlink:href") ? "link" : "generic";
  }
  return "generic";
}

/** A `<th>`: `rowheader` by scope or when its row holds data cells, else `columnheader`. */
function headerRole(th: HTMLTableCellElement): string {
  const scope = th.getAttribute("scope")?.toLowerCase();
  if (scope === "row" || scope === "rowgroup") return "rowheader";
  if (scope === "col" || scope === "colgroup") return "columnheader";
  const row = th.parentElement;
  if (row?.parentElement?.tagName === "THEAD") return "columnheader";
  if (row && row.querySelector(":scope > td")) return "rowheader";
  return "columnheader";
}

/**
 * The role of `el`: the first known token of its `role` attribute (`none`/`presentation` on a
 * focusable element is ignored), else its implicit role; `generic` when it has none.
 */
export function roleOf(el: Element): string {
  const explicit = explicitRole(el.getAttribute("role"));
  if (explicit && !(explicit === "none" && presentationConflict(el))) return explicit;
  return implicitRole(el);
}

// ---------------------------------------------------------------------------------------------
// names

/** Roles named from their contents when nothing else names them. */
const NAME_FROM_CONTENT = new Set([
  "button",
  "cell",
  "checkbox",
  "columnheader",
  "disclosuretriangle",
  "gridcell",
  "heading",
  "link",
  "math",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "rowheader",
  "switch",
  "tab",
  "tooltip",
  "treeitem",
]);

/**
 * Roles whose contents never make a name, not even inside another element's name (Chromium's
 * list): landmarks, containers of other widgets, fields (their value counts instead) and media.
 */
const NO_CONTENT = new Set([
  "alert",
  "alertdialog",
  "application",
  "article",
  "audio",
  "banner",
  "blockquote",
  "colorwell",
  "comment",
  "complementary",
  "contentinfo",
  "date",
  "datetime",
  "dialog",
  "document",
  "feed",
  "figure",
  "form",
  "grid",
  "group",
  "iframe",
  "img",
  "inputtime",
  "listbox",
  "log",
  "main",
  "marquee",
  "menu",
  "menubar",
  "meter",
  "navigation",
  "note",
  "progressbar",
  "radiogroup",
  "rowgroup",
  "scrollbar",
  "search",
  "searchbox",
  "sectionfooter",
  "sectionheader",
  "slider",
  "spinbutton",
  "status",
  "suggestion",
  "table",
  "tablist",
  "tabpanel",
  "term",
  "textbox",
  "timer",
  "toolbar",
  "tree",
  "treegrid",
  "video",
]);

/** Whether `role` takes its name from its contents (exported for the snapshot and the tests). */
export function namedFromContent(role: string): boolean {
  return NAME_FROM_CONTENT.has(role);
}

/** Display values that make an element a block: its text is set apart by spaces. */
const INLINE = /^inline|^contents$|^ruby/;

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
}

/**
 * Where a walk through contents stops: after this much text (not counting the whitespace around
 * each text node) or this many elements. Far beyond what an outline line shows (NAME_MAX_CHARS),
 * and it keeps an element that wraps a whole app in `role="button"` from costing a page walk.
 */
export const CONTENT_CAP = { chars: 1_000, elements: 1_000 };

/** The tree of `el` for id lookups (a Document or ShadowRoot both have getElementById). */
function byId(el: Element, id: string): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  return typeof root.getElementById === "function" ? root.getElementById(id) : null;
}

/** The accessible name of `el` with role `role`: whitespace collapsed, not cut. */
export function nameOf(el: Element, role: string = roleOf(el)): string {
  const name = collapse(nameStep(el, role, newWalk(el, false), "root"));
  // Generated text (`::before`/`::after` content) costs a style computation per element and
  // pseudo-element, so it is read only for a name that is empty without it: an icon-only
  // button, or one whose label is all CSS.
  if (name !== "" || !(NAME_FROM_CONTENT.has(role) || gridRow(el, role))) return name;
  return collapse(nameStep(el, role, newWalk(el, true), "root"));
}

function newWalk(el: Element, generated: boolean): Walk {
  return {
    visited: new Set([el]),
    labelledBy: false,
    hiddenToo: false,
    read: { chars: 0, elements: 0 },
    generated,
  };
}

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
    const ids = el.getAttribute("aria-labelledby")?.trim();
    if (ids) {
      const parts: string[] = [];
      for (const id of ids.split(/\s+/)) {
        const target = byId(el, id);
        if (!target) continue;
        const hidden = !target.checkVisibility?.() || target.closest("[aria-hidden=true]") !== null;
        const inner: Walk = {
          visited: new Set([...walk.visited, target]),
          labelledBy: true,
          hiddenToo: walk.hiddenToo || hidden,
          read: walk.read,
          generated: walk.generated,
        };
        parts.push(nameStep(target, roleOf(target), inner, "referenced"));
      }
      const joined = collapse(parts.join(" "));
      if (joined) return joined;
    }
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
    NAME_FROM_CONTENT.has(role) || gridRow(el, role)
  ) {
    // Kept as it is (the root collapses it): `<span>a </span><span>b</span>` reads "a b".
    const text = contentText(el, walk);
    if (collapse(text)) return text;
  }
  // 2I: the tooltip; Chromium names no generic element by it (it is its description then).
  if (root && (role === "generic" || role === "none")) return "";
  return el.getAttribute("title") ?? "";
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
  if (el instanceof HTMLInputElement) {
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
      return legend ? contentText(legend, walk) : "";
    }
    case "TABLE": {
      const caption = (el as HTMLTableElement).caption;
      return caption ? contentText(caption, walk) : "";
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

/** The text of a labelable element's `<label>`s (`labelsOf`). */
function labelsName(el: Element, walk: Walk): string {
  const labels = labelsOf(el);
  if (labels.length === 0) return "";
  const parts: string[] = [];
  for (const label of labels) {
    if (walk.visited.has(label)) continue;
    if (!walk.hiddenToo && hiddenLabel(label)) continue;
    walk.visited.add(label);
    parts.push(contentText(label, walk));
    walk.visited.delete(label);
  }
  return collapse(parts.join(" "));
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
function labelsOf(el: Element): Element[] {
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
function hiddenLabel(label: Element): boolean {
  return !label.checkVisibility({ visibilityProperty: true }) ||
    label.closest("[aria-hidden=true]") !== null;
}

/** The element's children as rendered: its open shadow root's, a slot's assigned nodes. */
function composedChildren(el: Element): ArrayLike<Node> {
  if (el.shadowRoot) return el.shadowRoot.childNodes;
  if (el instanceof HTMLSlotElement) return el.assignedNodes({ flatten: true });
  return el.childNodes;
}

/**
 * The text of `el`'s contents (2F): each child's text alternative, blocks set apart, with the
 * text of `::before`/`::after` when `walk.generated` (see nameOf). `ownText` is false when `el` is
 * `visibility: hidden`: its text nodes are left out, its visible children are not.
 */
function contentText(el: Element, walk: Walk, ownText = true): string {
  let out = walk.generated ? generatedText(el, "::before") : "";
  const children = composedChildren(el);
  const read = walk.read;
  for (let i = 0; i < children.length; i++) {
    if (read.chars > CONTENT_CAP.chars || read.elements > CONTENT_CAP.elements) break;
    const node = children[i];
    if (node.nodeType === Node.TEXT_NODE) {
      if (ownText) {
        const data = (node as Text).data;
        out += data;
        read.chars += data.trim().length;
      }
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
      if (style.display === "none") continue;
      childText = style.visibility === "visible";
      if (!childText && !child.firstElementChild) continue;
      block = !INLINE.test(style.display);
    }
    if (child.tagName === "BR") {
      out += "\n";
      continue;
    }
    walk.visited.add(child);
    const text = childText
      ? nameStep(child, roleOf(child), walk, "descendant")
      : contentText(child, walk, false); // only its visible descendants
    walk.visited.delete(child);
    out += block ? ` ${text} ` : text;
  }
  return walk.generated ? out + generatedText(el, "::after") : out;
}

/** A quoted string, an `attr()`, or the `/` before alternative text, in a `content` value. */
const CONTENT_PART = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)|(\/)/g;

/** The text a `::before` or `::after` adds (its alternative text after `/` when given). */
function generatedText(el: Element, pseudo: "::before" | "::after"): string {
  const content = getComputedStyle(el, pseudo).content;
  if (!content || content === "none" || content === "normal") return "";
  let text = "";
  for (const part of content.matchAll(CONTENT_PART)) {
    if (part[4]) text = ""; // what follows the slash replaces what came before
    else if (part[3]) text += el.getAttribute(part[3]) ?? "";
    else text += unescapeCss(part[1] ?? part[2] ?? "");
  }
  return text;
}

/** CSS string escapes: `\"`, `\\`, `\A` (a line break), `\e900` (a code point). */
function unescapeCss(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|(.))/g, (_, hex, char) => {
    if (!hex) return char;
    const code = parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  });
}

// ---------------------------------------------------------------------------------------------
// states

const CHECKABLE = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
const VALUED = new Set([
  "textbox",
  "searchbox",
  "combobox",
  "spinbutton",
  "slider",
  "date",
  "datetime",
  "inputtime",
]);
const SELECTABLE = new Set(["option", "tab", "row", "gridcell", "treeitem", "cell"]);

/**
 * Elements the `disabled` attribute (or a disabled fieldset or optgroup) can disable; Chromium
 * writes no state on the fieldset or optgroup itself.
 */
const DISABLEABLE = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION"]);

/**
 * The states written after a snapshot line, without brackets, in this order: `checked` /
 * `checked=mixed`, `disabled`, `expanded=true|false`, `selected`, `pressed` / `pressed=mixed`,
 * `level=N`, `password`, `value="…"` (the live value; never a password's), `url="…"` (a link's
 * `href` as written), `required`.
 */
export function statesOf(el: Element, role: string): string[] {
  const states: string[] = [];
  const aria = (name: string) => el.getAttribute(name);
  if (CHECKABLE.has(role)) {
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      if (el.indeterminate && el.type === "checkbox") states.push("checked=mixed");
      else if (el.checked) states.push("checked");
    } else {
      const checked = aria("aria-checked");
      if (checked === "true") states.push("checked");
      else if (checked === "mixed") states.push("checked=mixed");
    }
  }
  if (
    (DISABLEABLE.has(el.tagName) && el.matches(":disabled")) ||
    el.closest("[aria-disabled=true]") !== null // inherited, as Chromium does
  ) {
    states.push("disabled");
  }
  const expanded = el.tagName === "SUMMARY" && role === "disclosuretriangle"
    ? String((el.parentElement as HTMLDetailsElement).open)
    : aria("aria-expanded");
  if (expanded === "true" || expanded === "false") states.push(`expanded=${expanded}`);
  if (SELECTABLE.has(role)) {
    if (el instanceof HTMLOptionElement ? el.selected : aria("aria-selected") === "true") {
      states.push("selected");
    }
  }
  const pressed = aria("aria-pressed");
  if (pressed === "true") states.push("pressed");
  else if (pressed === "mixed") states.push("pressed=mixed");
  if (role === "heading") states.push(`level=${headingLevel(el)}`);
  const password = el instanceof HTMLInputElement && el.type === "password";
  if (password) states.push("password");
  else if (VALUED.has(role)) {
    const value = valueOf(el);
    if (value) states.push(`value=${quoted(value)}`);
  }
  if (role === "link") {
    const href = el.getAttribute("href");
    if (href) states.push(`url=${quoted(href)}`);
  }
  if ((el as HTMLInputElement).required === true || aria("aria-required") === "true") {
    states.push("required");
  }
  return states;
}

/** h1–h6 by tag, else aria-level, else 2 (the ARIA default for a heading). */
function headingLevel(el: Element): number {
  const level = Number(el.getAttribute("aria-level"));
  if (Number.isInteger(level) && level >= 1) return level;
  const tag = /^H([1-6])$/.exec(el.tagName);
  return tag ? Number(tag[1]) : 2;
}

/** The live value of a field: an input's or textarea's value, a select's chosen option text. */
function valueOf(el: Element): string {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.label ?? "";
  const text = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
  if (text !== null) return text;
  return (el as HTMLElement).isContentEditable ? el.textContent ?? "" : "";
}
