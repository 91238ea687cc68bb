/**
 * `dom.type` (browser_type_text): types text into a field or contenteditable element. The kit
 * focuses it (a focused field keeps its focus) and selects what it holds (`clear`) or puts the
 * caret at its end; the text then goes in as the browser inserts typed text, through the debugger
 * (`Input.insertText`, trusted_keys.ts), and an empty text with `clear` is a Delete key. After it,
 * the kit reads the value and, with `submit`, submits; `change` is the browser's own, when the
 * field loses focus (or on submit), as after a person's typing. A navigation that starts is
 * waited for and a dialog answers the call (action_outcome.ts). Where the debugger
 * cannot be used, or the field takes no inserted text (a date field), the kit sets the value
 * itself as before (dom_type.ts in the page); the answer says which (`input`). The inserted text
 * goes where the focus is when it is sent, so a focus the page moved into a frame whose site is off
 * or not allowed refuses the call, as for keys (point_site.ts `checkFocusSites`).
 */
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { runAction, trustedSession } from "./action_outcome.ts";
import { domCall, type PageNavigation } from "./dom_call.ts";
import { insertText, pressKeys } from "./trusted_keys.ts";
import { trustedEdit } from "./trusted_edit.ts";
import { checkFocusSites } from "../point_site.ts";
import { frameRefusal } from "../site_gate.ts";

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
 * field takes no inserted text (nothing was typed). With `submit`, a field outside any form gets a
 * real Enter after the text, as a person submits it (the browser fires the field's `change` first);
 * in a form the kit submits (dom_focus.ts keysDone).
 */
async function trustedType(
  tabId: number,
  input: BrowserInput<"dom.type">,
  session: TabSession,
  context: MethodContext,
  onPage: (seen: PageNavigation) => void,
  partial: (known: object) => void,
) {
  const focus = { purpose: "type" as const, text: input.text, clear: input.clear };
  let tag: unknown;
  let enter = false;
  const done = await trustedEdit(
    tabId,
    TOOL,
    input,
    focus,
    async (focused) => {
      if (!focused.trusted) return undefined;
      await checkFocusSites(tabId, (url) => frameRefusal(url, context));
      tag = focused.tag;
      partial({ tag, input: "trusted" });
      if (focused.erase) await pressKeys(session, "Delete");
      else if (focused.insert) await insertText(session, String(focused.insert));
      enter = input.submit === true && focused.formless === true;
      if (enter) await pressKeys(session, "Enter");
      return { submit: input.submit && !enter };
    },
    context,
    onPage,
  );
  return done && { tag, ...done, ...(enter ? { submitted: "enter" } : {}) };
}
