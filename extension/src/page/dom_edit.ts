/**
 * Editing for the kit's type and key operations: which elements take text, setting a field's
 * value through the native setter (so frameworks that track `value`, like React, see the change),
 * and inserting or deleting at the caret the way a keystroke would.
 */
import { fail, tagOf } from "./dom_find.ts";

export type Field = HTMLInputElement | HTMLTextAreaElement;
/** A text field, or a contenteditable element. */
export type Editable = Field | HTMLElement;

/** Input types that hold no typed text. */
const NON_TEXT_INPUTS = new Set([
  "button",
  "checkbox",
  "color",
  "file",
  "hidden",
  "image",
  "radio",
  "range",
  "reset",
  "submit",
]);

export function isField(element: Element): element is Field {
  return element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(element.type));
}

/** Why `element` takes no typed text, or undefined when it does. */
export function whyNotEditable(element: Element): string | undefined {
  if (element instanceof HTMLInputElement && NON_TEXT_INPUTS.has(element.type)) {
    return `is an <input type="${element.type}">, which holds no typed text`;
  }
  if (isField(element)) {
    if (element.disabled) return "is disabled";
    if (element.readOnly) return "is read-only";
    return undefined;
  }
  if (element instanceof HTMLElement && element.isContentEditable) return undefined;
  return `is a <${tagOf(element)}>, not an input, textarea or contenteditable element`;
}

/** The element as an Editable, or a NOT_EDITABLE failure; `label` names it (targetLabel). */
export function editable(element: Element, label: string): Editable {
  const why = whyNotEditable(element);
  if (why === undefined) return element as Editable;
  throw fail(
    "NOT_EDITABLE",
    `The element ${label} names ${why}. Point the selector or ref at the text field itself ` +
      "(browser_query_elements shows tags and attributes); use browser_select_option for " +
      "<select> and browser_click_element for checkboxes and buttons.",
  );
}

/** Sets a field's value with the prototype's setter, bypassing per-instance overrides. */
export function setFieldValue(field: Field, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement
    ? HTMLTextAreaElement.prototype
    : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(prototype, "value")?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
}

export function fireInput(target: Element, inputType: string, data: string | null): void {
  target.dispatchEvent(
    new InputEvent("input", { bubbles: true, composed: true, inputType, data }),
  );
}

export function fireChange(target: Element): void {
  target.dispatchEvent(new Event("change", { bubbles: true }));
}

/** The field's selection, or its end when the input type has none (email, number). */
function selectionOf(field: Field): [number, number] {
  const end = field.value.length;
  return [field.selectionStart ?? end, field.selectionEnd ?? end];
}

/** Replaces the field's [from, to) with `text`, puts the caret after it, fires `input`. */
function spliceField(field: Field, from: number, to: number, text: string, inputType: string) {
  setFieldValue(field, field.value.slice(0, from) + text + field.value.slice(to));
  const caret = from + text.length;
  if (field.selectionStart !== null) field.setSelectionRange(caret, caret);
  fireInput(field, inputType, text === "" ? null : text);
}

/** Types `text` at the caret, replacing any selection, like a keystroke. */
export function insertAtCaret(target: Editable, text: string): void {
  if (isField(target)) {
    const [start, end] = selectionOf(target);
    spliceField(target, start, end, text, text === "\n" ? "insertLineBreak" : "insertText");
  } else if (text === "\n") {
    document.execCommand("insertParagraph");
  } else {
    document.execCommand("insertText", false, text);
  }
}

/** Backspace (`forward` false) or Delete at the caret. */
export function deleteAtCaret(target: Editable, forward: boolean): void {
  if (!isField(target)) {
    document.execCommand(forward ? "forwardDelete" : "delete");
    return;
  }
  const [start, end] = selectionOf(target);
  if (start !== end) return spliceField(target, start, end, "", "deleteContentBackward");
  if (forward) {
    spliceField(
      target,
      start,
      Math.min(start + 1, target.value.length),
      "",
      "deleteContentForward",
    );
  } else spliceField(target, Math.max(start - 1, 0), start, "", "deleteContentBackward");
}

/** What the editable holds now. */
export function contentOf(target: Editable): string {
  return isField(target) ? target.value : target.innerText;
}
