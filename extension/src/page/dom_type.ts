/**
 * The kit's type operation: puts text into an input, textarea or contenteditable element the
 * way frameworks notice (native value setter, then `input` and `change` events), optionally
 * submitting afterwards.
 */
import { capText } from "../../../protocol/text_cap.ts";
import { findTarget, tagOf, targetLabel } from "./dom_find.ts";
import {
  contentOf,
  type Editable,
  editable,
  type Field,
  fireChange,
  fireInput,
  isField,
  setFieldValue,
} from "./dom_edit.ts";
import { dispatchKey } from "./dom_press.ts";
import { keyInfo } from "./dom_keys.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";

/** The longest `value` the result echoes. */
export const TYPED_VALUE_MAX = 1_000;

/** Selects all `target` holds (clear), else puts the caret at its end. */
export function selectContents(target: HTMLElement, clear: boolean): void {
  const range = document.createRange();
  range.selectNodeContents(target);
  if (!clear) range.collapse(false);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** Replaces (or appends to) a contenteditable's content through the editing commands. */
function typeRich(target: HTMLElement, text: string, clear: boolean) {
  selectContents(target, clear);
  const done = text === ""
    ? document.execCommand("delete")
    : document.execCommand("insertText", false, text);
  if (done) return;
  if (clear) target.textContent = text;
  else target.append(text);
  fireInput(target, "insertText", text);
}

/** Submits the field's form (requestSubmit) or, outside a form, presses Enter on it. */
export function submitFrom(target: Editable): Record<string, unknown> {
  const form = isField(target) ? target.form : target.closest("form");
  if (!form) {
    dispatchKey(target, keyInfo("Enter")!, []);
    return { submitted: "enter" };
  }
  if (!form.checkValidity()) {
    const invalid = form.querySelector<HTMLInputElement>(":invalid");
    form.requestSubmit(); // shows the browser's validation message, submits nothing
    return {
      submitted: "blocked",
      validationMessage: `${
        invalid?.name || invalid?.id || "a field"
      }: ${invalid?.validationMessage}`,
    };
  }
  form.requestSubmit();
  return { submitted: "form" };
}

/**
 * Gives `target` focus unless it has it already. A focused field is left as it is: no second
 * focus, and never a click (a page may open a picker or toggle something on click).
 */
export function focusOnce(target: HTMLElement): void {
  const root = target.getRootNode() as Document | ShadowRoot;
  if (root.activeElement !== target) target.focus({ preventScroll: true });
}

/** Sets the field to `text` (clear) or adds `text` at the end of its content, caret after it. */
function fillField(field: Field, text: string, clear: boolean): void {
  setFieldValue(field, clear ? text : field.value + text);
  const end = field.value.length;
  // Wherever the caret was, it ends after the typed text (email and number fields have none).
  if (field.selectionStart !== null) field.setSelectionRange(end, end);
}

/** `dom.type`: focuses the target field and sets (clear) or appends its text. */
export function typeText(args: KitArgs<"dom.type">, state: KitState) {
  const { text, clear } = args;
  const target = editable(findTarget(args, state.refs), targetLabel(args));
  target.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  focusOnce(target);
  if (isField(target)) {
    fillField(target, text, clear);
    fireInput(target, "insertText", text);
    fireChange(target);
  } else {
    typeRich(target, text, clear);
  }
  const value =
    capText(contentOf(target), TYPED_VALUE_MAX, "Read it with browser_query_elements.").text;
  const submitted = args.submit ? submitFrom(target) : {};
  return { tag: tagOf(target), value, ...submitted };
}
