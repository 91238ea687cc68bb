/**
 * `dom.key` (browser_press_key): presses a key, with modifiers held, as real keyboard events
 * through the debugger (trusted_keys.ts), so the browser's own behaviour follows: Shift+Arrow and
 * Ctrl+A select text, Ctrl+B bolds in an editor, Enter submits. The kit focuses the element first
 * (or leaves the focused one) and watches what the key did (`effect`); an Enter that navigates the
 * tab or opens one is waited for, and a dialog it opens answers the call (action_outcome.ts).
 * Where the debugger cannot be used (off, another debugger holds the tab), or the element takes no
 * focus (so no key would reach it), the kit's synthetic events do it as before (dom_press.ts);
 * the answer says which (`input`).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { CdpParams, TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { placeCall } from "./call_place.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { kitStep } from "./kit_step.ts";
import { keyEvents, sendKeyEvents } from "./trusted_keys.ts";

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
  const { calls, refFrames } = context;
  const { place, focused } = await calls.run(tabId, TOOL, async () => {
    const place = await placeCall(tabId, input.ref, input.frame, refFrames);
    const selector = input.ref ? undefined : input.selector;
    const args = { purpose: "key" as const, selector, ref: place.ref };
    return { place, focused: await kitStep(tabId, place, "dom.focus", args, context) };
  });
  if (!focused.focused) return undefined;
  const { target } = focused;
  partial({ target, input: "trusted" });
  await sendKeyEvents(session, events);
  const done = await calls.run(
    tabId,
    TOOL,
    () => kitStep(tabId, place, "dom.keysDone", {}, context),
  )
    .catch((error) => {
      // The key took the tab to another page before the kit could say what it did.
      if (error instanceof HubError && error.payload.code === "TAB_NAVIGATED") {
        return { navigation: "possible" } as Record<string, unknown>;
      }
      throw error;
    });
  if (done.navigation) onPage(done.navigation as PageNavigation);
  return { target, ...(done.effect ? { effect: done.effect } : {}) };
}
