/**
 * `input.clickAt` (browser_click_at) and `input.moveMouse` (browser_move_mouse): real mouse input
 * at a point of the tab's viewport (CSS pixels), for canvas apps and agents that work from
 * screenshots. No DOM path: with the debugger off or busy they fail (DEBUGGER_OFF, DEBUGGER_BUSY).
 * A click that navigates the tab, opens a dialog or starts a download says so
 * (action_outcome.ts); with no page watch to tell, it waits the navigation grace window.
 */
import type { TabSession } from "../debugger_sessions.ts";
import {
  type BrowserMethod,
  type MethodContext,
  type TabTarget,
  targetTab,
} from "./browser_method.ts";
import { type ActionOptions, runAction } from "./action_outcome.ts";
import { assertTabShown } from "./element_point.ts";
import { mouseClick, mouseMove } from "./trusted_pointer.ts";

export const inputClickAt: BrowserMethod<"input.clickAt"> = (input, context) => {
  const { x, y, button, clickCount, modifiers } = input;
  return atPoint(
    input,
    context,
    { navigation: { wait: true } },
    (session) => mouseClick(session, x, y, { button, clickCount, modifiers }),
  );
};

export const inputMoveMouse: BrowserMethod<"input.moveMouse"> = (input, context) =>
  atPoint(input, context, {}, (session) => mouseMove(session, input.x, input.y));

/**
 * Runs `act` on the tab's session at the input's point once the tab is shown (TAB_HIDDEN
 * otherwise), answering the point with `input: "trusted"` and what the action caused.
 */
async function atPoint(
  input: TabTarget & { x: number; y: number },
  context: MethodContext,
  options: ActionOptions,
  act: (session: TabSession) => Promise<void>,
) {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await context.sessions.session(tabId);
  const { x, y } = input;
  return await runAction(tabId, context, options, async (_, partial) => {
    await assertTabShown(tabId);
    const answer = { tabId, x, y, input: "trusted" as const };
    partial(answer);
    await act(session);
    return answer;
  });
}
