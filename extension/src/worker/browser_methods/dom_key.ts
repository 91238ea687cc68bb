/**
 * `dom.key` (browser_press_key): presses a key, with modifiers held, as real keyboard events
 * through the debugger (trusted_keys.ts), so the browser's own behaviour follows: Shift+Arrow and
 * Ctrl+A select text, Ctrl+B bolds in an editor, Enter submits. The kit focuses the element first
 * (or leaves the focused one) and watches what the key did (`effect`); an Enter that navigates the
 * tab or opens one is waited for, and a dialog it opens answers the call (action_outcome.ts).
 * Where the debugger cannot be used (off, another debugger holds the tab), or the element takes no
 * focus (so no key would reach it), the kit's synthetic events do it as before (dom_press.ts);
 * the answer says which (`input`). Real keys go where the page keeps the focus, which may be inside
 * a cross-origin frame it focused: right before they are sent, the focus is followed down from the
 * top document and a frame whose site is off or not allowed refuses the call (point_site.ts
 * `checkFocusSites`).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import type { CdpParams, TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { keyEvents, sendKeyEvents } from "./trusted_keys.ts";
import { trustedEdit } from "./trusted_edit.ts";
import { checkFocusSites } from "../point_site.ts";
import { frameRefusal } from "../site_gate.ts";

const TOOL = "browser_press_key";

export const domKey: BrowserMethod<"dom.key"> = async (input, context) => {
  const modifiers = [...new Set(input.modifiers ?? [])];
  // An unknown key fails (INVALID_KEY) before the tab is touched.
  const events = keyEvents(input.key, modifiers);
  const key = String(events[modifiers.length].key);
  const tabId = (await targetTab(input)).id!;
  const options = key === "Enter" ? { navigation: { wait: input.waitForLoad } } : {};
  const session = await trustedSession(tabId, context);
  return await runAction(tabId, context, options, async (onPage, partial) => {
    partial({ key, modifiers });
    const trusted = session &&
      await trustedKey(tabId, input, session, events, context, onPage, partial);
    if (trusted) return { tabId, key, modifiers, ...trusted, input: "trusted" as const };
    const answer = await domCall("dom.key", { ...input, tabId }, context, TOOL, onPage);
    return { ...answer, input: "synthetic" as const };
  });
};

/**
 * Focuses the element (or keeps the focused one), sends the key's events, and reads what they did:
 * `{ target, effect }`, or undefined when the element took no focus (nothing was sent).
 */
async function trustedKey(
  tabId: number,
  input: BrowserInput<"dom.key">,
  session: TabSession,
  events: CdpParams[],
  context: MethodContext,
  onPage: (seen: PageNavigation) => void,
  partial: (known: object) => void,
) {
  let target: unknown;
  const done = await trustedEdit(
    tabId,
    TOOL,
    input,
    { purpose: "key" },
    async (focused) => {
      if (!focused.focused) return undefined;
      await checkFocusSites(tabId, (url) => frameRefusal(url, context));
      target = focused.target;
      partial({ target, input: "trusted" });
      await sendKeyEvents(session, events);
      return {};
    },
    context,
    onPage,
  );
  return done && { target, ...(done.effect ? { effect: done.effect } : {}) };
}
