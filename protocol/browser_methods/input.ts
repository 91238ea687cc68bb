/** Pointer input at points and drags (trusted input through the debugger). */
import * as z from "zod";
import { clickFields } from "./dom.ts";
import { countSet, frameField, refField, selectorField, tabIdField } from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";

/** A coordinate in the tab's viewport, CSS pixels from its top-left corner. */
const coordinate = (what: string) =>
  z.number().finite().min(0).describe(
    `${what}, in CSS pixels of the tab's viewport from its top-left corner (as in a ` +
      "browser_screenshot_tab image at scale 1, and browser_query_elements' rect).",
  );

/** Whether one end of a drag (`from` or `to`) is named exactly once: ref, selector or x/y. */
function oneEnd(input: Record<string, unknown>, end: "from" | "to"): boolean {
  const element = countSet(input, [`${end}Ref`, `${end}Selector`]);
  const point = countSet(input, [`${end}X`, `${end}Y`]);
  return (element === 1 && point === 0) || (element === 0 && point === 2);
}

export const INPUT_METHODS = {
  "input.clickAt": {
    input: z.object({
      tabId: tabIdField,
      x: coordinate("Where to click, across"),
      y: coordinate("Where to click, down"),
      ...clickFields,
    }),
  },
  "input.moveMouse": {
    input: z.object({
      tabId: tabIdField,
      x: coordinate("Where to move the mouse, across"),
      y: coordinate("Where to move the mouse, down"),
    }),
  },
  "input.drag": {
    input: z.object({
      tabId: tabIdField,
      fromRef: refField("the element to drag"),
      fromSelector: selectorField("the element to drag"),
      toRef: refField("the element to drop on"),
      toSelector: selectorField("the element to drop on"),
      frame: frameField,
      fromX: coordinate("Where the drag starts, across").optional(),
      fromY: coordinate("Where the drag starts, down").optional(),
      toX: coordinate("Where the drag ends, across").optional(),
      toY: coordinate("Where the drag ends, down").optional(),
    }).refine((input) => oneEnd(input, "from") && oneEnd(input, "to"), {
      message: "name each end once: fromRef, fromSelector or fromX+fromY; toRef, toSelector " +
        "or toX+toY",
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/** What a pointer method answers. */
export interface PointerAnswer {
  tabId: number;
  /** Always trusted: these methods have no DOM path. */
  input: "trusted";
  x?: number;
  y?: number;
  [field: string]: unknown;
}

/** What browser_drag answers. */
export interface DragAnswer extends PointerAnswer {
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** `html5`: the page started an HTML5 drag, dropped on the target; `pointer`: mouse events. */
  kind: "pointer" | "html5";
}

/** What each method of this file answers. */
export type InputResults = {
  "input.clickAt": PointerAnswer;
  "input.moveMouse": PointerAnswer;
  "input.drag": DragAnswer;
};
