/**
 * `dom.type` (browser_type_text): types text into a field or contenteditable element. The kit
 * focuses it (a focused field keeps its focus) and selects what it holds (`clear`) or puts the
 * caret at its end; the text then goes in as the browser inserts typed text, through the debugger
 * (`Input.insertText`, trusted_keys.ts), and an empty text with `clear` is a Delete key. After it,
 * the kit fires `change`, reads the value and, with `submit`, submits as before; a navigation that
 * starts is waited for and a dialog answers the call (action_outcome.ts). Where the debugger
 * cannot be used, or the field takes no inserted text (a date field), the kit sets the value
 * itself as before (dom_type.ts in the page); the answer says which (`input`).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { placeCall } from "./call_place.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { kitStep } from "./kit_step.ts";
import { insertText, pressKeys } from "./trusted_keys.ts";

const TOOL = "browser_type_text";

export const domType: BrowserMethod<"dom.type"> = async (input, context) => {
  const tabId = (await targetTab(input)).id!;
  const options = input.submit ? { navigation: { wait: input.waitForLoad } } : {};
  const session = await trustedSession(tabId, context);
  return await runAction(tabId, context, options, async (onPage, partial) => {
    const trusted = session && await trustedType(tabId, input, session, context, onPage, partial);
    if (trusted) return { tabId, ...trusted, input: "trusted" as const };
    const pageSaw = input.submit ? onPage : undefined;
    const answer = await domCall("dom.type", { ...input, tabId }, context, TOOL, pageSaw);
    return { ...answer, input: "synthetic" as const };
  });
};

/**
 * Focuses and selects, inserts the text (or deletes), then reads the outcome; undefined when the
 * field takes no inserted text (nothing was typed).
 */
async function trustedType(
  tabId: number,
  input: BrowserInput<"dom.type">,
  session: TabSession,
  context: MethodContext,
  onPage: (seen: PageNavigation) => void,
  partial: (known: object) => void,
) {
  const { calls, refFrames } = context;
  const { place, focused } = await calls.run(tabId, TOOL, async () => {
    const place = await placeCall(tabId, input.ref, input.frame, refFrames);
    const args = {
      purpose: "type" as const,
      selector: input.ref ? undefined : input.selector,
      ref: place.ref,
      text: input.text,
      clear: input.clear,
    };
    return { place, focused: await kitStep(tabId, place, "dom.focus", args, context) };
  });
  if (!focused.trusted) return undefined;
  partial({ tag: focused.tag, input: "trusted" });
  if (focused.erase) await pressKeys(session, "Delete");
  else if (focused.insert) await insertText(session, String(focused.insert));
  const args = { submit: input.submit };
  const done = await calls.run(
    tabId,
    TOOL,
    () => kitStep(tabId, place, "dom.keysDone", args, context),
  );
  const { navigation, ...answer } = done;
  if (navigation) onPage(navigation as PageNavigation);
  return answer;
}
