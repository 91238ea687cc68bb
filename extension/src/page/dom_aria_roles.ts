/**
 * The WAI-ARIA roles an author may write in a `role` attribute, by the names Chromium reports, and
 * the table-like container an element is in: what both the roles (dom_roles.ts) and the names
 * (dom_names.ts: a grid's rows are named by their cells) read, so neither imports the other.
 */

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

/** The table, grid or treegrid `el` is in (in its own tree), if any. */
export function tableOf(el: Element): Element | null {
  return el.closest("table,[role=table],[role=grid],[role=treegrid]");
}

/** Whether `el` is a row of a grid or treegrid: named by its contents, as Chromium does. */
export function gridRow(el: Element, role: string): boolean {
  if (role !== "row") return false;
  const role2 = explicitRole(tableOf(el)?.getAttribute("role") ?? null);
  return role2 === "grid" || role2 === "treegrid";
}
