import { browserTool } from "./browser_tool.ts";

export const handleDialog = browserTool({
  name: "browser_handle_dialog",
  displayName: "Handle dialog",
  description: "Answer the alert, confirm, prompt or beforeunload dialog open in a tab: accept " +
    "(OK; leave the page for beforeunload) or dismiss (Cancel), with promptText for a prompt. " +
    "While a dialog is open the page is frozen and other tools on its tab fail with DIALOG_OPEN; " +
    "an action that opened one answers with `dialog`. Returns tabId, handled {type, message} and " +
    "dialog: the next dialog if one opened right after, else null.",
  method: "tabs.handleDialog",
});
