/**
 * `dom.click` (browser_click_element): clicks an element with real mouse events at the center of
 * its visible part, after scrolling it into view (element_point.ts, trusted_pointer.ts), in any
 * frame: the page sees a trusted click (`isTrusted`), with the button, click count and modifiers
 * asked for. An element covered by another fails with ELEMENT_COVERED. When the debugger is off or
 * busy, or the element shows nothing a pointer can reach (hidden, an `<option>`), the DOM kit
 * clicks it as before (dom_call.ts), answering `input: "synthetic"`. A click that navigates the
 * tab or opens one is waited for (action_navigation.ts); one that opens a dialog or starts a
 * download says so (action_outcome.ts).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { actedOn, pointAt } from "./element_point.ts";
import { sendClick } from "./trusted_pointer.ts";

const TOOL = "browser_click_element";

export const domClick: BrowserMethod<"dom.click"> = async (input, context) => {
  // A given tabId is checked by the first step that uses it (TAB_NOT_FOUND): looking it up here
  // too would cost a round trip on every click.
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await trustedSession(tabId, context);
  const { button, clickCount, modifiers, waitForLoad } = input;
  return await runAction(
    tabId,
    context,
    { navigation: { wait: waitForLoad } },
    async (onPage, partial) => {
      if (!session) return await synthetic(tabId, input, context, onPage);
      const point = await pointAt(tabId, input, context, TOOL, {
        scroll: true,
        hitCheck: true,
        watch: true,
      });
      if (!point.shown) return await synthetic(tabId, input, context, onPage);
      const before = { clicked: true, tag: point.info.tag, text: point.info.text };
      partial({ ...before, input: "trusted" });
      // The read after starts once the page handled the last press, while the release is on its
      // way: the page answers it only after that release's mouseup (and so its click), else the
      // read is asked again once the release answered.
      const click = sendClick(session, point.x, point.y, { button, clickCount, modifiers });
      await click.pressed;
      const first = await actedOn(tabId, point, context, TOOL, "content", clickCount ?? 1);
      await click.released;
      const after = first?.early ? await actedOn(tabId, point, context, TOOL, "content") : first;
      // The element's document is gone or did not answer: the click may have navigated it.
      onPage(after?.navigation ?? "possible");
      return {
        tabId,
        ...before,
        ...(after?.tag ? { tag: after.tag, text: after.text } : {}),
        input: "trusted" as const,
      };
    },
  );
};

/**
 * The kit's DOM click (dom_act.ts: `element.click()`, or a right, middle, double or modified
 * click's DOM events with its button, count and keys), answering `input: "synthetic"`.
 */
async function synthetic(
  tabId: number,
  input: BrowserInput<"dom.click">,
  context: MethodContext,
  onPage: (seen: PageNavigation) => void,
) {
  const answer = await domCall("dom.click", { ...input, tabId }, context, TOOL, onPage);
  return { ...answer, input: "synthetic" as const };
}
