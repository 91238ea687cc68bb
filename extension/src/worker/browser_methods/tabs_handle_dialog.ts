/**
 * `tabs.handleDialog` (browser_handle_dialog): answers the alert, confirm, prompt or beforeunload
 * dialog open in the tab (OK or Cancel, a prompt's text) through the debugger, and says which
 * dialog opened right after it, if one did (dialogs.ts).
 */
import { type BrowserMethod, targetTab } from "./browser_method.ts";

export const tabsHandleDialog: BrowserMethod<"tabs.handleDialog"> = async (input, { dialogs }) => {
  const tabId = input.tabId ?? (await targetTab(input)).id!;
  const { handled, dialog } = await dialogs.handle(tabId, input.accept, input.promptText);
  return { tabId, handled: { type: handled.type, message: handled.message }, dialog };
};
