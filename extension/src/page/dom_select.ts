/** The kit's select operation: picks an option of a <select> by value, label or index. */
import { clip, fail, findTarget, tagOf, targetLabel } from "./dom_find.ts";
import { fireChange, fireInput } from "./dom_edit.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";

/** How `dom.select` names the option: exactly one of these is set (the method's input checks). */
export type OptionChoice = Pick<KitArgs<"dom.select">, "value" | "label" | "index">;

export interface OptionSummary {
  value: string;
  label: string;
}

/** Options listed in an OPTION_NOT_FOUND message at most. */
const LISTED_OPTIONS = 25;

/**
 * The index of the option `choice` names, or -1: `value` matches exactly; `label` exactly, then
 * ignoring case and surrounding whitespace; `index` counts from 0.
 */
export function pickOption(options: OptionSummary[], choice: OptionChoice): number {
  if (choice.value !== undefined) return options.findIndex((o) => o.value === choice.value);
  if (choice.label !== undefined) {
    const exact = options.findIndex((o) => o.label === choice.label);
    if (exact >= 0) return exact;
    const wanted = choice.label.trim().toLowerCase();
    return options.findIndex((o) => o.label.trim().toLowerCase() === wanted);
  }
  const index = choice.index ?? -1;
  return Number.isInteger(index) && index >= 0 && index < options.length ? index : -1;
}

/** The options as a short readable list: `"Red" (value "r"), …`, capped. */
export function listOptions(options: OptionSummary[]): string {
  if (options.length === 0) return "it has no options";
  const shown = options.slice(0, LISTED_OPTIONS).map((o, i) =>
    `${i}: "${clip(o.label, 60)}" (value "${clip(o.value, 60)}")`
  );
  const more = options.length - shown.length;
  return shown.join(", ") + (more > 0 ? `, and ${more} more` : "");
}

function describeChoice(choice: OptionChoice): string {
  if (choice.value !== undefined) return `value "${choice.value}"`;
  if (choice.label !== undefined) return `label "${choice.label}"`;
  return `index ${choice.index}`;
}

/**
 * NOT_A_SELECT for `element`, which `label` names; `custom`: it is no custom dropdown either
 * (the trusted path's check, page/dom_focus.ts).
 */
export function notASelect(label: string, element: Element, custom = false) {
  const either = custom
    ? " nor a custom dropdown (role combobox or listbox, aria-haspopup, aria-expanded or " +
      "aria-controls). Click it open with browser_click_element and click the option."
    : ". For a custom dropdown, click it open with browser_click_element and click the option.";
  return fail(
    "NOT_A_SELECT",
    `The element ${label} names is a <${tagOf(element)}>, not a <select>${either}`,
  );
}

/** `dom.select`: selects the option in the selector's first match; fires input and change. */
export function selectOption(args: KitArgs<"dom.select">, state: KitState) {
  const label = targetLabel(args);
  const select = findTarget(args, state.refs);
  if (!(select instanceof HTMLSelectElement)) throw notASelect(label, select);
  if (select.disabled) {
    throw fail("NOT_EDITABLE", `The <select> ${label} is disabled.`);
  }
  const options = [...select.options];
  const summaries = options.map((o) => ({ value: o.value, label: o.label }));
  const index = pickOption(summaries, args);
  if (index < 0) {
    throw fail(
      "OPTION_NOT_FOUND",
      `${label} has no option with ${describeChoice(args)}. Its options: ` +
        `${listOptions(summaries)}.`,
    );
  }
  if (options[index].disabled) {
    throw fail(
      "OPTION_DISABLED",
      `Option ${index} ("${summaries[index].label}") of ${label} is disabled.`,
    );
  }
  select.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  select.focus({ preventScroll: true });
  if (select.multiple) options[index].selected = true;
  else select.selectedIndex = index;
  fireInput(select, "insertReplacementText", null);
  fireChange(select);
  return {
    selected: [...select.selectedOptions].map((o) => ({
      value: o.value,
      label: o.label,
      index: o.index,
    })),
  };
}
