/** The kit's pointer and scrolling operations: click, hover and scroll. */
import { clip, findTarget, tagOf, targetLabel } from "./dom_find.ts";
import type { KitArgs, KitState } from "./dom_kit_types.ts";
import { movesBox, scrollInside } from "./dom_scroll_box.ts";

const CENTER = { block: "center", inline: "center", behavior: "instant" } as const;

/**
 * `dom.click`: scrolls the target (ref, or the selector's first match) into view and clicks it: a
 * plain left click is the element's own `click()`; a right, middle, double or modified click sends
 * the DOM events a person's click gives (`clickEvents`) at the element's center.
 */
export function clickElement(args: KitArgs<"dom.click">, state: KitState) {
  const element = findTarget(args, state.refs);
  element.scrollIntoView(CENTER);
  const { button = "left", clickCount = 1, modifiers = [] } = args;
  if (button !== "left" || clickCount !== 1 || modifiers.length) {
    dispatchClicks(element, clickEvents(button, clickCount), modifiers);
  } else if (element instanceof HTMLElement) element.click();
  else element.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 200);
  return { clicked: true, tag: tagOf(element), text };
}

type Button = NonNullable<KitArgs<"dom.click">["button"]>;
type Modifier = NonNullable<KitArgs<"dom.click">["modifiers"]>[number];

/** One DOM event of a click: its type, whether a PointerEvent, and its mouse fields. */
export interface ClickEvent {
  type: string;
  pointer: boolean;
  /** MouseEvent.button: 0 left, 1 middle, 2 right. */
  button: number;
  /** MouseEvent.buttons: the held buttons' bits (1 left, 2 right, 4 middle). */
  buttons: number;
  /** The click count (0 on pointer events). */
  detail: number;
}

const BUTTON_NUMBER: Record<Button, number> = { left: 0, middle: 1, right: 2 };
const BUTTON_BIT: Record<Button, number> = { left: 1, middle: 4, right: 2 };

/**
 * The DOM events of `clickCount` presses of `button`, in order, as Chromium sends a person's:
 * each press is pointerdown, mousedown, pointerup, mouseup (detail counting the presses), then
 * click for the left button (dblclick after the second), contextmenu and auxclick for the right
 * one (never click), auxclick for the middle one (never click: an untrusted auxclick follows no
 * link).
 */
export function clickEvents(button: Button, clickCount: number): ClickEvent[] {
  const number = BUTTON_NUMBER[button];
  const event = (type: string, pointer: boolean, buttons: number, detail: number) => ({
    type,
    pointer,
    button: number,
    buttons,
    detail,
  });
  const events: ClickEvent[] = [];
  for (let n = 1; n <= clickCount; n++) {
    events.push(
      event("pointerdown", true, BUTTON_BIT[button], 0),
      event("mousedown", false, BUTTON_BIT[button], n),
      event("pointerup", true, 0, 0),
      event("mouseup", false, 0, n),
    );
    if (button === "left") events.push(event("click", false, 0, n));
    if (button === "right") events.push(event("contextmenu", false, 0, n));
    if (button !== "left") events.push(event("auxclick", false, 0, n));
    if (button === "left" && n === 2) events.push(event("dblclick", false, 0, n));
  }
  return events;
}

/** Sends `events` to `element` at its center, with `modifiers` held on every one. */
export function dispatchClicks(element: Element, events: ClickEvent[], modifiers: Modifier[]) {
  const rect = element.getBoundingClientRect();
  const keys = {
    altKey: modifiers.includes("Alt"),
    ctrlKey: modifiers.includes("Control"),
    metaKey: modifiers.includes("Meta"),
    shiftKey: modifiers.includes("Shift"),
  };
  for (const { type, pointer, button, buttons, detail } of events) {
    const init = {
      ...pointerInit(rect.x + rect.width / 2, rect.y + rect.height / 2, true, null),
      ...keys,
      button,
      buttons,
      detail,
    };
    element.dispatchEvent(pointer ? new PointerEvent(type, init) : new MouseEvent(type, init));
  }
}

function pointerInit(x: number, y: number, bubbles: boolean, related: Element | null) {
  return {
    clientX: x,
    clientY: y,
    bubbles,
    cancelable: bubbles,
    composed: true,
    relatedTarget: related,
    pointerId: 1,
    pointerType: "mouse",
    isPrimary: true,
  };
}

/** over/enter (or out/leave) events, pointer then mouse, as a moving mouse sends them. */
function crossing(target: Element, x: number, y: number, related: Element | null, into: boolean) {
  const [over, enter] = into ? ["over", "enter"] : ["out", "leave"];
  target.dispatchEvent(new PointerEvent(`pointer${over}`, pointerInit(x, y, true, related)));
  target.dispatchEvent(new PointerEvent(`pointer${enter}`, pointerInit(x, y, false, related)));
  target.dispatchEvent(new MouseEvent(`mouse${over}`, pointerInit(x, y, true, related)));
  target.dispatchEvent(new MouseEvent(`mouse${enter}`, pointerInit(x, y, false, related)));
}

/**
 * `dom.hover`: scrolls the selector's first match into view and sends the events of a mouse moving
 * onto its center (the previously hovered element gets out/leave first). CSS `:hover` does not
 * change: only the page's event handlers see the mouse.
 */
export function hoverElement(args: KitArgs<"dom.hover">, state: KitState) {
  const element = findTarget(args, state.refs);
  element.scrollIntoView(CENTER);
  const rect = element.getBoundingClientRect();
  const x = rect.x + rect.width / 2;
  const y = rect.y + rect.height / 2;
  const previous = state.hovered;
  if (previous && previous !== element && previous.isConnected) {
    crossing(previous, x, y, element, false);
  }
  if (previous !== element) crossing(element, x, y, previous ?? null, true);
  element.dispatchEvent(new PointerEvent("pointermove", pointerInit(x, y, true, null)));
  element.dispatchEvent(new MouseEvent("mousemove", pointerInit(x, y, true, null)));
  state.hovered = element;
  const text = element instanceof HTMLElement ? element.innerText : element.textContent ?? "";
  return { tag: tagOf(element), text: clip(text) };
}

/**
 * `dom.scroll`: brings the selector's first match to the center of the view, or scrolls the page by
 * x/y pixels, or to its top or bottom; answers with the page's scroll position and size. With a
 * selector and x/y or to, scrolls inside that element's own box instead (dom_scroll_box.ts) and
 * adds its state as `element`.
 */
export function scrollPage(args: KitArgs<"dom.scroll">, state: KitState) {
  const root = document.scrollingElement ?? document.documentElement;
  // The one element lookup of this operation: a ref or a selector.
  const target = args.selector || args.ref ? findTarget(args, state.refs) : undefined;
  let inside: ReturnType<typeof scrollInside> | undefined;
  if (target && movesBox(args)) inside = scrollInside(target, targetLabel(args), args);
  else if (target) target.scrollIntoView(CENTER);
  else if (args.to === "top") scrollTo({ top: 0, left: scrollX, behavior: "instant" });
  else if (args.to === "bottom") {
    scrollTo({ top: root.scrollHeight, left: scrollX, behavior: "instant" });
  } else {
    const left = args.x ?? 0;
    const top = args.y ?? 0;
    if (left || top) scrollBy({ left, top, behavior: "instant" });
  }
  return {
    scrollX: Math.round(scrollX),
    scrollY: Math.round(scrollY),
    scrollWidth: root.scrollWidth,
    scrollHeight: root.scrollHeight,
    viewportWidth: root.clientWidth,
    viewportHeight: root.clientHeight,
    ...(inside ? { element: inside } : {}),
  };
}
