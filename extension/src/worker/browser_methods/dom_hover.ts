/**
 * `dom.hover` (browser_hover_element): moves the real mouse onto the center of an element's
 * visible part, after scrolling it into view (element_point.ts, trusted_pointer.ts), in any frame:
 * CSS `:hover` applies and the page gets trusted pointer and mouse events (the element left gets
 * its out/leave events from the browser). An element covered by another fails with
 * ELEMENT_COVERED. When the debugger is off or busy, or the element shows nothing, the DOM kit
 * sends its synthetic events as before (dom_call.ts), answering `input: "synthetic"`.
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { domCall } from "./dom_call.ts";
import { actedOn, pointAt } from "./element_point.ts";
import { mouseMove } from "./trusted_pointer.ts";

const TOOL = "browser_hover_element";

export const domHover: BrowserMethod<"dom.hover"> = async (input, context) => {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await trustedSession(tabId, context);
  const synthetic = async () => ({
    ...await domCall("dom.hover", { ...input, tabId }, context, TOOL),
    input: "synthetic" as const,
  });
  return await runAction(tabId, context, {}, async (_onPage, partial) => {
    if (!session) return await synthetic();
    const point = await pointAt(tabId, input, context, TOOL, { scroll: true, hitCheck: true });
    if (!point.shown) return await synthetic();
    partial({ tag: point.info.tag, input: "trusted" });
    await mouseMove(session, point.x, point.y);
    const after = await actedOn(tabId, point, context, TOOL, "inner");
    return {
      tabId,
      tag: after?.tag ?? point.info.tag,
      text: after?.text ?? point.info.text,
      input: "trusted" as const,
    };
  });
};
