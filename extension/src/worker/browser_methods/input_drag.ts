/**
 * `input.drag` (browser_drag): a real pointer drag from an element or a point to an element or a
 * point (trusted_pointer.ts `mouseDrag`): the left button pressed at the start, moved in steps,
 * released at the end, so pointer-event sliders and boards follow it; when the page starts an
 * HTML5 drag (a `draggable` source), Chromium hands it to the debugger and it is dropped on the
 * target with the drag's own data. Elements are scrolled into view (the target first, then the
 * source, then the target is measured again where the source's scroll left it) and must not be
 * covered. No DOM path: with the debugger off or busy it fails (DEBUGGER_OFF, DEBUGGER_BUSY).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction } from "./action_outcome.ts";
import { assertTabShown, type ElementTarget, pointAt, shownPoint } from "./element_point.ts";
import { mouseDrag } from "./trusted_pointer.ts";

const TOOL = "browser_drag";

type Input = BrowserInput<"input.drag">;

export const inputDrag: BrowserMethod<"input.drag"> = async (input, context) => {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await context.sessions.session(tabId);
  const from = end(input, "from");
  const to = end(input, "to");
  return await runAction(tabId, context, {}, async (_, partial) => {
    if ("x" in from && "x" in to) await assertTabShown(tabId);
    if ("ref" in to || "selector" in to) await at(tabId, to, context, true);
    const start = "x" in from ? from : await at(tabId, from, context, true);
    const finish = "x" in to ? to : await at(tabId, to, context, false);
    partial({ tabId, input: "trusted", from: xy(start), to: xy(finish) });
    const events = (listener: (method: string, params: Record<string, unknown>) => void) =>
      context.sessions.onEvent((event) => {
        if (event.tabId === tabId && !event.sessionId) listener(event.method, event.params);
      });
    const mayStartHtml5 = "draggable" in start ? start.draggable as boolean : undefined;
    const { kind } = await mouseDrag(session, start, finish, events, { mayStartHtml5 });
    return { tabId, input: "trusted" as const, from: xy(start), to: xy(finish), kind };
  });
};

/** One end of the drag as the input names it: an element target, or a point. */
function end(input: Input, side: "from" | "to"): ElementTarget | { x: number; y: number } {
  const ref = input[`${side}Ref`];
  const selector = input[`${side}Selector`];
  if (ref !== undefined) return { ref };
  if (selector !== undefined) return { selector, frame: input.frame };
  return { x: input[`${side}X`]!, y: input[`${side}Y`]! };
}

/**
 * The element's point, scrolled into view when `scroll`; it must show and not be covered.
 * `draggable`: whether a press there may start an HTML5 drag.
 */
async function at(tabId: number, target: ElementTarget, context: MethodContext, scroll: boolean) {
  const point = await pointAt(tabId, target, context, TOOL, { scroll, hitCheck: true });
  const { x, y, info } = shownPoint(tabId, point, target);
  return { x, y, draggable: info.draggable !== false };
}

const xy = ({ x, y }: { x: number; y: number }) => ({ x, y });
