/**
 * Which roles the accessible-name computation (dom_names.ts) reads the contents of: the roles
 * named from their contents, and the roles whose contents never make a name (Chromium's lists).
 */

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
export const NO_CONTENT: ReadonlySet<string> = new Set([
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

/** Whether `role` takes its name from its contents (dom_names.ts, the tests). */
export function namedFromContent(role: string): boolean {
  return NAME_FROM_CONTENT.has(role);
}
