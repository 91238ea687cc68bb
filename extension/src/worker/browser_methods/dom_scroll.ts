/**
 * `dom.scroll` (browser_scroll): scrolls the page or an element into view through the DOM kit
 * (dom_call.ts), as before. Inside an element's own scroll box (a ref or selector with x/y or
 * `to`), it turns the real mouse wheel over the element's center (trusted_pointer.ts), so a page
 * that listens for `wheel` (an infinite list, a map) moves too: the element is brought into view
 * (element_point.ts), its box checked (NOT_SCROLLABLE as before) and read, the wheel turned by the
 * distance asked for, and once the box stops moving, what the wheel left of the distance (a page
 * that scrolled less) is scrolled by the kit, so the box ends where it was asked to be. Answers
 * `input: "trusted"`; with the debugger off or busy, or an element that shows nothing or lies
 * under another element (the wheel would scroll that one), the kit scrolls the box as before
 * (`input: "synthetic"`).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { quoteClip } from "../../../../protocol/clip.ts";
import { HubError } from "../../../../protocol/errors.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { trustedSession } from "./action_outcome.ts";
import { domCall, withoutUndefined } from "./dom_call.ts";
import { kitStep } from "./kit_step.ts";
import { pointAt, type PointedElement } from "./element_point.ts";
import { mouseWheel } from "./trusted_pointer.ts";
import type { ScrollBox, ScrollMove } from "../../page/dom_scroll_box.ts";

const TOOL = "browser_scroll";

/** How long the box may keep moving after the wheel (Chromium animates wheel scrolls). */
const SETTLE_MS = 1_000;
/** How often the box is read while it moves. */
const SETTLE_STEP_MS = 40;

/** The box as the page's kit reads it (dom_scroll_box.ts), with its tag. */
type BoxState = ScrollBox & { tag: string };

export const domScroll: BrowserMethod<"dom.scroll"> = async (input, context) => {
  const target = input.ref ?? input.selector;
  const moves = input.x !== undefined || input.y !== undefined || input.to !== undefined;
  if (target === undefined || !moves) return await domCall("dom.scroll", input, context, TOOL);
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const synthetic = async () => ({
    ...await domCall("dom.scroll", { ...input, tabId }, context, TOOL),
    input: "synthetic" as const,
  });
  const session = await trustedSession(tabId, context);
  if (!session) return await synthetic();
  const options = { scroll: true, hitCheck: true, paint: true };
  const point = await pointAt(tabId, input, context, TOOL, options)
    .catch((error) => {
      // Under another element the wheel would scroll that one: the kit scrolls the box instead.
      if (error instanceof HubError && error.code === "ELEMENT_COVERED") return undefined;
      throw error;
    });
  if (!point?.shown) return await synthetic();
  const what = input.ref ? `ref "${input.ref}"` : quoteClip(input.selector ?? "");
  const move = { x: input.x, y: input.y, to: input.to };
  const before = await readBox(tabId, point, context, move, what);
  const wanted = goal(before, input);
  const deltaX = wanted.left - before.scrollLeft;
  const deltaY = wanted.top - before.scrollTop;
  let now = before;
  if (deltaX || deltaY) {
    await mouseWheel(session, point.x, point.y, deltaX, deltaY);
    now = await settled(tabId, point, context, move, what, wanted, before);
  }
  // What the wheel left: the kit moves the box the rest of the way (0, 0: it only reads).
  const rest = { x: wanted.left - now.scrollLeft, y: wanted.top - now.scrollTop };
  const { to: _to, ...element } = input;
  const answer = await domCall("dom.scroll", { ...element, tabId, ...rest }, context, TOOL);
  return { ...answer, input: "trusted" as const };
};

/** Where the box should end: by x/y pixels, or at its top or bottom, within its range. */
function goal(box: BoxState, input: BrowserInput<"dom.scroll">) {
  const maxLeft = Math.max(0, box.scrollWidth - box.clientWidth);
  const maxTop = Math.max(0, box.scrollHeight - box.clientHeight);
  const clamp = (n: number, max: number) => Math.max(0, Math.min(max, Math.round(n)));
  if (input.to === "top") return { left: box.scrollLeft, top: 0 };
  if (input.to === "bottom") return { left: box.scrollLeft, top: maxTop };
  return {
    left: clamp(box.scrollLeft + (input.x ?? 0), maxLeft),
    top: clamp(box.scrollTop + (input.y ?? 0), maxTop),
  };
}

/** The element's scroll box now (NOT_SCROLLABLE when it has none for `move`). */
async function readBox(
  tabId: number,
  point: PointedElement,
  context: MethodContext,
  move: ScrollMove,
  what: string,
): Promise<BoxState> {
  const args = { ref: point.element, box: withoutUndefined(move), what };
  const value = await context.calls.run(
    tabId,
    TOOL,
    () => kitStep(tabId, point.place, "dom.acted", args, context),
  );
  return (value as unknown as { box: BoxState }).box;
}

/** Reads the box until it reaches `wanted` or stops moving (two equal reads), SETTLE_MS at most. */
async function settled(
  tabId: number,
  point: PointedElement,
  context: MethodContext,
  move: ScrollMove,
  what: string,
  wanted: { left: number; top: number },
  before: BoxState,
): Promise<BoxState> {
  const until = Date.now() + SETTLE_MS;
  let last = before;
  let still = 0;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    const now = await readBox(tabId, point, context, move, what);
    if (now.scrollLeft === wanted.left && now.scrollTop === wanted.top) return now;
    const moved = now.scrollLeft !== last.scrollLeft || now.scrollTop !== last.scrollTop;
    still = moved ? 0 : still + 1;
    // Unmoved twice in a row (the first read may come before the wheel's animation starts).
    if (still >= 2) return now;
    last = now;
  }
  return last;
}
