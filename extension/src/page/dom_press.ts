/**
 * The kit's key operation: synthetic keydown / keypress / keyup events with the right `key`,
 * `code` and modifiers, plus the default action a real key press would have had, emulated
 * (synthetic events have none): a character typed into a field, Backspace/Delete, Enter
 * submitting a form or clicking a focused button or link, Space clicking a button. Browser-level
 * shortcuts (Ctrl+T, Tab moving focus, scrolling) do not happen.
 */
import { fail, findTarget, tagOf } from "./dom_find.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";
import { type KeyInfo, keyInfo, unknownKeyMessage } from "./dom_keys.ts";
import {
  deleteAtCaret,
  type Editable,
  insertAtCaret,
  isField,
  whyNotEditable,
} from "./dom_edit.ts";

/** A modifier key `dom.key` holds (the method's `modifiers` enum). */
export type Modifier = NonNullable<KitArgs<"dom.key">["modifiers"]>[number];
const FLAGS: Record<Modifier, "altKey" | "ctrlKey" | "metaKey" | "shiftKey"> = {
  Alt: "altKey",
  Control: "ctrlKey",
  Meta: "metaKey",
  Shift: "shiftKey",
};

/** What the key press did besides its events. */
export type KeyEffect = "prevented" | "inserted" | "deleted" | "submitted" | "clicked" | "none";

function eventInit(info: KeyInfo, modifiers: Modifier[]): KeyboardEventInit {
  const init: KeyboardEventInit = {
    key: info.key,
    code: info.code,
    keyCode: info.keyCode,
    which: info.keyCode,
    location: info.location,
    bubbles: true,
    cancelable: true,
    composed: true,
  };
  for (const modifier of modifiers) init[FLAGS[modifier]] = true;
  return init;
}

function fire(target: Element, type: string, init: KeyboardEventInit): boolean {
  return target.dispatchEvent(new KeyboardEvent(type, init));
}

/** Presses `info` on `target` with `modifiers` held (their own keydown/keyup around it). */
export function dispatchKey(target: Element, info: KeyInfo, modifiers: Modifier[]): KeyEffect {
  const held = modifiers.map((m) => keyInfo(m)!);
  held.forEach((m, i) => fire(target, "keydown", eventInit(m, modifiers.slice(0, i + 1))));
  const init = eventInit(info, modifiers);
  let effect: KeyEffect = "prevented";
  if (fire(target, "keydown", init)) {
    const command = modifiers.some((m) => m !== "Shift");
    const charCode = info.key === "Enter" ? 13 : info.printable ? info.key.codePointAt(0)! : 0;
    const pressed = charCode === 0 || command ||
      fire(target, "keypress", { ...init, charCode, keyCode: charCode, which: charCode });
    effect = !pressed ? "prevented" : command ? "none" : defaultAction(target, info);
  }
  fire(target, "keyup", init);
  held.reverse().forEach((m, i) =>
    fire(target, "keyup", eventInit(m, modifiers.slice(0, held.length - i - 1)))
  );
  return effect;
}

const editableTarget = (target: Element) =>
  whyNotEditable(target) === undefined ? target as Editable : undefined;

/** Whether Enter (or Space) on a focused `target` clicks it. */
function activates(target: Element, key: string): boolean {
  if (target instanceof HTMLButtonElement) return true;
  if (target instanceof HTMLAnchorElement) return key === "Enter" && target.hasAttribute("href");
  if (!(target instanceof HTMLInputElement)) return false;
  return /^(submit|button|reset|image)$/.test(target.type) ||
    (key === " " && /^(checkbox|radio)$/.test(target.type));
}

function click(target: Element, key: string): KeyEffect {
  if (!activates(target, key)) return "none";
  (target as HTMLElement).click();
  return "clicked";
}

function defaultAction(target: Element, info: KeyInfo): KeyEffect {
  const field = editableTarget(target);
  if (info.key === "Enter") {
    if (field && (target instanceof HTMLTextAreaElement || !isField(target))) {
      insertAtCaret(field, "\n");
      return "inserted";
    }
    if (target instanceof HTMLInputElement && target.form && field) {
      target.form.requestSubmit();
      return "submitted";
    }
    return click(target, info.key);
  }
  if (info.printable) {
    if (field) {
      insertAtCaret(field, info.key);
      return "inserted";
    }
    return click(target, info.key);
  }
  if (field && (info.key === "Backspace" || info.key === "Delete")) {
    deleteAtCaret(field, info.key === "Delete");
    return "deleted";
  }
  return "none";
}

function unknownKey(key: string) {
  return fail("INVALID_KEY", unknownKeyMessage(key));
}

/**
 * `dom.key`: focuses the selector's first match (default: the focused element, inside open shadow
 * roots too) and presses.
 */
export function pressKey(args: KitArgs<"dom.key">, state: KitState) {
  const info = keyInfo(args.key);
  if (!info) throw unknownKey(args.key);
  const modifiers = [...new Set(args.modifiers ?? [])];
  const target = keyTarget(args, state);
  const effect = dispatchKey(target, info, modifiers);
  return { key: info.key, modifiers, target: targetOf(target), effect };
}

/**
 * The element a key goes to: the selector's (or ref's) element, scrolled into view and focused;
 * without either, the focused element (else the body).
 */
export function keyTarget(args: Parameters<typeof findTarget>[0], state: KitState): Element {
  if (!args.selector && !args.ref) {
    return focusedElement() ?? document.body ?? document.documentElement;
  }
  const target = findTarget(args, state.refs);
  target.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  return target;
}

/** The focused element, inside open shadow roots (the document reports only their host). */
export function focusedElement(): Element | null {
  let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return focused;
}

export function targetOf(element: Element) {
  const described: Record<string, string> = { tag: tagOf(element) };
  for (const name of ["id", "name", "type"]) {
    const value = element.getAttribute(name);
    if (value) described[name] = value.slice(0, 100);
  }
  return described;
}
