/**
 * The accessibility role of an element, as browser_snapshot writes it, computed in the page kit
 * from the DOM alone (no debugger: see docs/decisions/063-refs-across-frames.md). Roles follow
 * HTML-AAM and WAI-ARIA with Chromium's role names, lowercased (`img`, never `image`; `generic`
 * when an element has no role of its own); the role attribute's tokens are in dom_aria_roles.ts.
 * `nameOf` here is the accessible name (dom_names.ts) computed with these roles: roles and names
 * need each other (a section is a region only when it has a name, a name reads the roles of what
 * it walks), and the repository has no import cycles, so dom_names.ts takes the role function as
 * a parameter and this file binds it. States are in dom_states.ts. tests/e2e/browser_roles_test.ts
 * checks roles, names and states against Chromium's own accessibility tree, and lists where the
 * kit differs on purpose (text-level roles and scoped headers are generic, layout tables are
 * tables, generated text is read only for a name that is empty without it, ElementInternals roles
 * cannot be read).
 *
 * Cost: `roleOf` reads the tag and a few attributes (and, for a section, form or nested aside, its
 * name from aria-labelledby, aria-label or title).
 */
import { explicitRole, tableOf } from "./dom_aria_roles.ts";
import { accessibleName } from "./dom_names.ts";
import type { PageFacts } from "./visibility.ts";

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
    case "ASIDE":
    case "SECTION":
    case "FORM":
      return landmarkRole(el);
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
    case "TH":
      return tablePartRole(el);
    case "svg": // an image when named, else a drawing Chromium leaves out (svgroot)
      return hasNameAttribute(el) || el.querySelector(":scope > title") ? "img" : "generic";
    case "a": // SVG's <a> (SVG tag names keep their case)
      return el.hasAttribute("href") || el.hasAttribute("xlink:href") ? "link" : "generic";
  }
  return "generic";
}

/**
 * A header, footer, aside, section or form: a landmark, but for a header/footer inside a
 * sectioning element, a nested aside without a name, and a section or form without one.
 */
function landmarkRole(el: Element): string {
  switch (el.tagName) {
    case "HEADER":
    case "FOOTER":
      if (el.parentElement?.closest(SECTIONING)) return "generic";
      return el.tagName === "HEADER" ? "banner" : "contentinfo";
    case "ASIDE":
      // Inside another sectioning element an aside is complementary only with a name.
      return el.parentElement?.closest("article,aside,nav,section") && !hasOwnName(el)
        ? "generic"
        : "complementary";
    case "SECTION":
      return hasOwnName(el) ? "region" : "generic";
  }
  return hasOwnName(el) ? "form" : "generic"; // FORM
}

/** A `<tr>`, `<td>` or `<th>`: row, cell or header by the role of the table it is in. */
function tablePartRole(el: Element): string {
  const table = tableOf(el);
  const role = table ? roleOf(table) : "table";
  // The rows and cells of a table made presentational (a layout table) are wrappers.
  if (role === "none") return "generic";
  if (el.tagName === "TR") return "row";
  if (el.tagName === "TH") return headerRole(el as HTMLTableCellElement);
  return role === "grid" || role === "treegrid" ? "gridcell" : "cell";
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

/** The accessible name of `el` with role `role` (dom_names.ts, with roleOf's roles): whitespace
 * collapsed, not cut; with `seen`, from what people see only (accessibleName). */
export function nameOf(el: Element, role: string = roleOf(el), seen?: PageFacts): string {
  return accessibleName(el, role, roleOf, seen);
}
