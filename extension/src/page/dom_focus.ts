/**
 * The kit's steps around trusted keyboard input, whose keys and text the worker sends through the
 * debugger (extension/src/worker/browser_methods/trusted_keys.ts), and around a custom dropdown:
 *
 * - `dom.focus` scrolls the element into view and focuses it (a field that has focus keeps it, as
 *   browser_type_text always did); for typing it selects what the field holds (`clear`) or puts
 *   the caret at its end, and says what to insert; it starts watching what the keys do;
 * - `dom.keysDone` ends that watch: what the key did (`effect`, as the synthetic key says it) and
 *   whether a navigation may have begun; after typing, the field's value, and `submit` (a field
 *   in a form loses focus first, so the browser fires its own `change`; no `change` of the kit's);
 * - `dom.option` finds the option of an open custom dropdown (elements with role=option) by its
 *   accessible name, value or position, and gives it a ref for the worker's trusted click.
 */
import { capText } from "../../../protocol/text_cap.ts";
import { fail, findTarget, isVisible, tagOf, targetLabel } from "./dom_find.ts";
import { contentOf, type Editable, editable, isField } from "./dom_edit.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";
import { focusedElement, type KeyEffect, keyTarget, targetOf } from "./dom_press.ts";
import { focusOnce, selectContents, submitFrom, TYPED_VALUE_MAX } from "./dom_type.ts";
import { listOptions, notASelect, type OptionSummary, pickOption } from "./dom_select.ts";
import { nameOf, roleOf } from "./dom_roles.ts";
import { startWatch, stopWatch } from "./dom_point.ts";

type FocusArgs = KitArgs<"dom.focus">;
type KeysDoneArgs = KitArgs<"dom.keysDone">;
type OptionArgs = KitArgs<"dom.option">;

/** Input types whose text the browser's own text insertion edits. */
const TYPED_INPUTS = /^(text|search|url|tel|password|email|number)$/;

/** What the trusted keys of one call have done so far (one call per document at a time). */
interface KeyWatch {
  target: Element;
  purpose: FocusArgs["purpose"];
  events: Event[];
  stop(): void;
}

const keyWatches = new WeakMap<KitState, KeyWatch>();

const KEY_EVENTS = ["keydown", "keypress", "input", "submit", "click"];
/** The most events one watch keeps (a chord of four modifiers and a key makes about a dozen). */
const MAX_RECORDED = 64;

/** Records the events a key press may cause, in this document, until `dom.keysDone`. */
function watchKeys(state: KitState, target: Element, purpose: FocusArgs["purpose"]): void {
  keyWatches.get(state)?.stop();
  const events: Event[] = [];
  // Bounded: a watch a failed call never read keeps only its first events until the next one.
  const record = (event: Event) => events.length < MAX_RECORDED && events.push(event);
  for (const type of KEY_EVENTS) addEventListener(type, record, true);
  keyWatches.set(state, {
    target,
    purpose,
    events,
    stop: () => KEY_EVENTS.forEach((type) => removeEventListener(type, record, true)),
  });
  startWatch(state);
}

/**
 * What the keys did, in the synthetic key's words (dom_press.ts KeyEffect): a keydown or
 * keypress the page cancelled, a form submitted, an element clicked (Enter or Space on a button),
 * text inserted or deleted, else none. Read after the events ran, so every listener had its turn.
 */
function effectOf(events: Event[]): KeyEffect {
  const keys = events.filter((e) => e.type === "keydown" || e.type === "keypress");
  if (keys.some((e) => e.defaultPrevented && !isModifier(e))) return "prevented";
  if (events.some((e) => e.type === "submit")) return "submitted";
  if (events.some((e) => e.type === "click")) return "clicked";
  const input = events.find((e) => e.type === "input") as InputEvent | undefined;
  if (input) return input.inputType?.startsWith("delete") ? "deleted" : "inserted";
  return "none";
}

const isModifier = (event: Event) =>
  /^(Shift|Control|Alt|Meta)$/.test((event as KeyboardEvent).key);

/** `dom.focus`: see the file's comment. */
export function focusForKeys(args: FocusArgs, state: KitState) {
  if (args.purpose === "key") {
    const target = keyTarget(args, state);
    // Keys go to the focused element: one that takes no focus gets the DOM path's events.
    const focused = target === focusedElement() || (!args.selector && !args.ref);
    if (focused) watchKeys(state, target, "key");
    return { target: targetOf(target), focused };
  }
  const target = editable(findTarget(args, state.refs), targetLabel(args));
  target.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  if (isField(target) && target instanceof HTMLInputElement && !TYPED_INPUTS.test(target.type)) {
    // A date, time or month field takes no inserted text: the DOM path sets its value.
    return { tag: tagOf(target), trusted: false };
  }
  focusOnce(target);
  // Inserted text goes to the focused element: where focus did not land, the DOM path types.
  if (!focusLanded(target)) return { tag: tagOf(target), trusted: false };
  const insert = selectForTyping(target, args.text ?? "", args.clear ?? true);
  watchKeys(state, target, "type");
  // A field outside any form is submitted with a real Enter (the worker sends it).
  const formless = isField(target) && !target.form;
  return { tag: tagOf(target), trusted: true, ...insert, ...(formless ? { formless } : {}) };
}

/** Whether `target` has focus, or is inside the focused contenteditable element. */
function focusLanded(target: Element): boolean {
  const active = (target.getRootNode() as Document | ShadowRoot).activeElement;
  return active === target ||
    (active instanceof HTMLElement && active.isContentEditable && active.contains(target));
}

/**
 * Selects what `target` holds (clear) or puts the caret at its end, and says what to insert
 * there: the text, or (a field with no caret, like email, appended to) its value and the text;
 * `erase` when the text is empty and something is selected (a Delete key removes it).
 */
function selectForTyping(target: Editable, text: string, clear: boolean) {
  if (isField(target)) {
    const held = target.value;
    if (clear || target.selectionStart === null) target.select();
    else target.setSelectionRange(held.length, held.length);
    const insert = !clear && target.selectionStart === null ? held + text : text;
    return { insert, erase: insert === "" && clear && held !== "" };
  }
  selectContents(target, clear);
  return { insert: text, erase: text === "" && clear && contentOf(target) !== "" };
}

/** `dom.keysDone`: see the file's comment. */
export function keysDone(args: KeysDoneArgs, state: KitState) {
  const watch = keyWatches.get(state);
  keyWatches.delete(state);
  watch?.stop();
  if (!watch) {
    const navigation = stopWatch(state);
    return navigation ? { navigation } : {};
  }
  if (watch.purpose === "key") {
    const navigation = stopWatch(state);
    return { effect: effectOf(watch.events), ...(navigation ? { navigation } : {}) };
  }
  // No `change` of ours: the browser fires its own when the field loses focus, as after a
  // person's typing (one, not two).
  const target = watch.target as Editable;
  const value =
    capText(contentOf(target), TYPED_VALUE_MAX, "Read it with browser_query_elements.").text;
  // Submitting a form, the field loses focus first, as when a person clicks its submit button:
  // the browser fires the field's `change` before `submit` (a page may check it there).
  if (args.submit && isField(target) && target.form) target.blur();
  const submitted = args.submit ? submitFrom(target) : {};
  const navigation = stopWatch(state);
  return { tag: tagOf(target), value, ...submitted, ...(navigation ? { navigation } : {}) };
}

/** How long `dom.option` waits for the options to show after the click (default). */
const OPTION_WAIT_MS = 1_500;

/**
 * The visible elements with role=option of the lists `control` names (aria-controls, aria-owns),
 * else of its document (or shadow root).
 */
function optionsOf(control: Element): Element[] {
  const root = control.getRootNode() as Document | ShadowRoot;
  const ids = `${control.getAttribute("aria-controls") ?? ""} ${
    control.getAttribute("aria-owns") ?? ""
  }`
    .split(/\s+/).filter(Boolean);
  const lists = ids.map((id) => root.getElementById(id) ?? document.getElementById(id));
  const listed = lists.flatMap((list) => list ? [...list.querySelectorAll("[role=option]")] : []);
  const options = listed.length ? listed : [...root.querySelectorAll("[role=option]")];
  return options.filter(isVisible);
}

/** Whether `element` says it opens a list: its role, aria-haspopup, aria-expanded, aria-controls. */
function dropdownLike(element: Element): boolean {
  if (/^(combobox|listbox)$/.test(roleOf(element))) return true;
  const popup = element.getAttribute("aria-haspopup");
  if (popup !== null && popup !== "false") return true;
  return ["aria-expanded", "aria-controls", "aria-owns"].some((name) => element.hasAttribute(name));
}

function summaryOf(option: Element): OptionSummary {
  const label = nameOf(option, "option");
  const value = option.getAttribute("data-value") ?? option.getAttribute("value") ?? label;
  return { value, label };
}

/** `dom.option`: see the file's comment; waits up to `waitMs` for a match to show. */
export async function findOption(args: OptionArgs, state: KitState) {
  const control = findTarget(args, state.refs);
  if (!dropdownLike(control)) throw notASelect(targetLabel(args), control, true);
  const until = Date.now() + (args.waitMs ?? OPTION_WAIT_MS);
  for (;;) {
    const options = optionsOf(control);
    const summaries = options.map(summaryOf);
    const index = pickOption(summaries, args);
    if (index >= 0) {
      const option = options[index];
      if (option.getAttribute("aria-disabled") === "true") {
        throw fail(
          "OPTION_DISABLED",
          `Option ${index} ("${summaries[index].label}") of ${targetLabel(args)} is disabled.`,
        );
      }
      const ref = state.refs.refOf(option, state.scheme);
      return { found: true, ref, index, ...summaries[index] };
    }
    if (Date.now() >= until) {
      if (args.probe) return { found: false };
      throw noOption(args, summaries);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function noOption(args: OptionArgs, summaries: OptionSummary[]) {
  const named = args.value !== undefined
    ? `value "${args.value}"`
    : args.label !== undefined
    ? `label "${args.label}"`
    : `index ${args.index}`;
  const seen = summaries.length
    ? `The options it shows: ${listOptions(summaries)}.`
    : "Clicking it showed no element with role=option; open it with browser_click_element " +
      "and look with browser_snapshot.";
  return fail("OPTION_NOT_FOUND", `${targetLabel(args)} has no option with ${named}. ${seen}`);
}
