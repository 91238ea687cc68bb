/**
 * `input.clickAt` (browser_click_at) and `input.moveMouse` (browser_move_mouse): real mouse input
 * at a point of the tab's viewport (CSS pixels), for canvas apps and agents that work from
 * screenshots. No DOM path: with the debugger off or busy they fail (DEBUGGER_OFF, DEBUGGER_BUSY).
 * A click that navigates the tab, opens a dialog or starts a download says so
 * (action_outcome.ts); with no page watch to tell, it waits the navigation grace window.
 */
import type { BrowserMethod } from "./browser_method.ts";
import { targetTab } from "./browser_method.ts";
import { runAction } from "./action_outcome.ts";
import { assertTabShown } from "./element_point.ts";
import { mouseClick, mouseMove } from "./trusted_pointer.ts";

export const inputClickAt: BrowserMethod<"input.clickAt"> = async (input, context) => {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await context.sessions.session(tabId);
  const { x, y, button, clickCount, modifiers } = input;
  return await runAction(tabId, context, { navigation: { wait: true } }, async (_, partial) => {
    await assertTabShown(tabId);
    const answer = { tabId, x, y, input: "trusted" as const };
    partial(answer);
    await mouseClick(session, x, y, { button, clickCount, modifiers });
    return answer;
  });
};

export const inputMoveMouse: BrowserMethod<"input.moveMouse"> = async (input, context) => {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const session = await context.sessions.session(tabId);
  const { x, y } = input;
  return await runAction(tabId, context, {}, async (_, partial) => {
    await assertTabShown(tabId);
    const answer = { tabId, x, y, input: "trusted" as const };
    partial(answer);
    await mouseMove(session, x, y);
    return answer;
  });
};
