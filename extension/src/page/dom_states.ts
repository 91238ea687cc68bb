/**
 * The states browser_snapshot writes after an element's role and name (`[checked, disabled,
 * value="…"]`), read live from the element: values, checked, open details, inherited
 * aria-disabled. The role comes from dom_roles.ts; values and urls are quoted (snapshot_quote.ts).
 */
import { quoted } from "./snapshot_quote.ts";
import { visibleComposedText } from "./visible_text.ts";

const CHECKABLE = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
/** Roles whose value is written as `value="…"` (tests/helpers/ax_tree.ts compares with them). */
export const VALUED = new Set([
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

/**
 * The live value of a field: an input's or textarea's value, a select's chosen option text; an
 * editable element's text as people see it (visible_text.ts: no hidden parts, no `<style>`), ""
 * when the whole element is hidden.
 */
function valueOf(el: Element): string {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.label ?? "";
  const text = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
  if (text !== null) return text;
  return (el as HTMLElement).isContentEditable ? visibleComposedText(el) : "";
}
