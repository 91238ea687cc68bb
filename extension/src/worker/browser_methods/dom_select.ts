/**
 * `dom.select` (browser_select_option): selects an option. A `<select>` is set through the DOM
 * kit as before (dom_select.ts in the page; `input: "synthetic"`). Any other element is taken for
 * a custom dropdown and driven as a person would, with trusted clicks through the debugger
 * (trusted_pointer.ts): a click on the control opens it (unless its options show already), then a
 * click on the option (an element with role=option, in the control's document) whose accessible
 * name is `label`, whose value is `value`, or which is `index`-th (the kit's `dom.option`).
 * Without the debugger a custom control fails as before (NOT_A_SELECT, which says to click it).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { placeCall } from "./call_place.ts";
import { domCall, withoutUndefined } from "./dom_call.ts";
import { type ElementTarget, pointAt, shownPoint } from "./element_point.ts";
import { kitStep } from "./kit_step.ts";
import { mouseClick } from "./trusted_pointer.ts";

const TOOL = "browser_select_option";

/** How long the options may take to show after the click that opens the control. */
const OPTIONS_WAIT_MS = 1_500;

export const domSelect: BrowserMethod<"dom.select"> = async (input, context) => {
  const tabId = (await targetTab(input)).id!;
  return await runAction(tabId, context, {}, async () => {
    try {
      const answer = await domCall("dom.select", { ...input, tabId }, context, TOOL);
      return { ...answer, input: "synthetic" as const };
    } catch (error) {
      if (!(error instanceof HubError) || error.payload.code !== "NOT_A_SELECT") throw error;
      const session = await trustedSession(tabId, context);
      if (!session) throw error;
      return await customSelect(tabId, input, session, context);
    }
  });
};

/** Opens the custom control with a trusted click (unless open) and clicks the option. */
async function customSelect(
  tabId: number,
  input: BrowserInput<"dom.select">,
  session: TabSession,
  context: MethodContext,
) {
  const { calls } = context;
  const target: ElementTarget = withoutUndefined({
    ref: input.ref,
    selector: input.ref ? undefined : input.selector,
    frame: input.frame,
  });
  const place = await calls.run(
    tabId,
    TOOL,
    () => placeCall(tabId, input.ref, input.frame, context),
  );
  const choice = withoutUndefined({ value: input.value, label: input.label, index: input.index });
  const findOption = (waitMs: number, probe: boolean) =>
    calls.run(tabId, TOOL, () =>
      kitStep(tabId, place, "dom.option", {
        selector: target.selector,
        ref: place.ref,
        ...choice,
        waitMs,
        probe,
      }, context));
  let option = await findOption(0, true);
  if (!option.found) {
    await clickOn(tabId, target, session, context);
    option = await findOption(OPTIONS_WAIT_MS, false);
  }
  await clickOn(tabId, { ref: String(option.ref) }, session, context);
  const { value, label, index } = option;
  return { tabId, selected: [{ value, label, index }], input: "trusted" as const };
}

/**
 * A trusted click at the visible center of `target`: ELEMENT_COVERED when something covers it,
 * TAB_HIDDEN in a tab that is not shown, ELEMENT_NOT_FOUND when it shows nothing (shownPoint).
 */
async function clickOn(
  tabId: number,
  target: ElementTarget,
  session: TabSession,
  context: MethodContext,
) {
  const point = await pointAt(tabId, target, context, TOOL, { scroll: true, hitCheck: true });
  const { x, y } = shownPoint(tabId, point, target);
  await mouseClick(session, x, y);
}
