/// <reference lib="deno.ns" />
/**
 * The kit's synthetic click (dom_act.ts): the DOM events a right, middle, double or modified click
 * sends when the debugger is off or busy (browser_click_element's fallback).
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { clickEvents, dispatchClicks } from "./dom_act.ts";

const line = (e: { type: string; button: number; buttons: number; detail: number }) =>
  `${e.type} ${e.button} ${e.buttons} ${e.detail}`;

Deno.test("a right click: presses of button 2, contextmenu and auxclick, never click", () => {
  assertEquals(clickEvents("right", 1).map(line), [
    "pointerdown 2 2 0",
    "mousedown 2 2 1",
    "pointerup 2 0 0",
    "mouseup 2 0 1",
    "contextmenu 2 0 1",
    "auxclick 2 0 1",
  ]);
});

Deno.test("a middle click: presses of button 1 and auxclick, never click", () => {
  assertEquals(clickEvents("middle", 1).map(line), [
    "pointerdown 1 4 0",
    "mousedown 1 4 1",
    "pointerup 1 0 0",
    "mouseup 1 0 1",
    "auxclick 1 0 1",
  ]);
});

Deno.test("a double click: click, click, dblclick with detail 1 and 2; a triple adds one", () => {
  const double = clickEvents("left", 2);
  assertEquals(double.filter((e) => !e.pointer).map(line), [
    "mousedown 0 1 1",
    "mouseup 0 0 1",
    "click 0 0 1",
    "mousedown 0 1 2",
    "mouseup 0 0 2",
    "click 0 0 2",
    "dblclick 0 0 2",
  ]);
  assertEquals(double.filter((e) => e.pointer).map((e) => e.type), [
    "pointerdown",
    "pointerup",
    "pointerdown",
    "pointerup",
  ]);
  const triple = clickEvents("left", 3).filter((e) => !e.pointer).map(line);
  assertEquals(triple.slice(7), ["mousedown 0 1 3", "mouseup 0 0 3", "click 0 0 3"]);
});

Deno.test("dispatchClicks sends each event at the center with the modifiers on every one", () => {
  const sent: Array<Record<string, unknown>> = [];
  const fields = [
    "button",
    "buttons",
    "detail",
    "clientX",
    "clientY",
    "altKey",
    "ctrlKey",
    "metaKey",
    "shiftKey",
  ];
  const fake = (kind: string) =>
    class extends Event {
      constructor(type: string, init: Record<string, unknown>) {
        super(type, init);
        const own = this as unknown as Record<string, unknown>;
        own.kind = kind;
        for (const field of fields) own[field] = init[field];
      }
    };
  const saved = [globalThis.MouseEvent, globalThis.PointerEvent];
  Object.assign(globalThis, { MouseEvent: fake("mouse"), PointerEvent: fake("pointer") });
  try {
    const element = {
      getBoundingClientRect: () => ({ x: 10, y: 20, width: 40, height: 10 }),
      dispatchEvent: (event: Event) => void sent.push(event as unknown as Record<string, unknown>),
    } as unknown as Element;
    dispatchClicks(element, clickEvents("right", 1), ["Control", "Shift"]);
  } finally {
    Object.assign(globalThis, { MouseEvent: saved[0], PointerEvent: saved[1] });
  }
  assertEquals(sent.map((e) => `${e.kind} ${e.type}`), [
    "pointer pointerdown",
    "mouse mousedown",
    "pointer pointerup",
    "mouse mouseup",
    "mouse contextmenu",
    "mouse auxclick",
  ]);
  for (const event of sent) {
    assertEquals(
      [event.clientX, event.clientY, event.ctrlKey, event.shiftKey, event.altKey, event.metaKey],
      [30, 25, true, true, false, false],
    );
    assertEquals([event.bubbles, event.cancelable], [true, true]);
  }
});
