/**
 * The method router for built-in tools: `tool.dispatch` with `kind: "browser"` lands here. The
 * input is parsed with the method's schema from protocol/browser_methods/ before its handler runs.
 */
import type { DispatchParams, DispatchResult } from "../../../../protocol/events.ts";
import {
  type BrowserMethodName,
  type BrowserResult,
  isBrowserMethodName,
  parseBrowserInput,
} from "../../../../protocol/browser_methods/mod.ts";
import { clip } from "../../../../protocol/clip.ts";
import { hubError } from "../../../../protocol/errors.ts";
import type { BrowserHandlers, BrowserMethod, MethodContext } from "./browser_method.ts";
import { domClick } from "./dom_click.ts";
import { pageText } from "./page_text.ts";
import { pageHtml } from "./page_html.ts";
import { domQuery } from "./dom_query.ts";
import { domWait } from "./dom_wait.ts";
import { domType } from "./dom_type.ts";
import { domSelect } from "./dom_select.ts";
import { domKey } from "./dom_key.ts";
import { domScroll } from "./dom_scroll.ts";
import { domHover } from "./dom_hover.ts";
import { inputClickAt, inputMoveMouse } from "./input_click_at.ts";
import { inputDrag } from "./input_drag.ts";
import { pageSnapshot } from "./page_snapshot.ts";
import { pageWaitFor } from "./page_wait_for.ts";
import { scriptingExecute } from "./scripting_execute.ts";
import { tabsList } from "./tabs_list.ts";
import { tabsNavigate } from "./tabs_navigate.ts";
import { tabsOpen } from "./tabs_open.ts";
import { tabsClose } from "./tabs_close.ts";
import { tabsFocus } from "./tabs_focus.ts";
import { tabsReload } from "./tabs_reload.ts";
import { tabsBack, tabsForward } from "./tabs_history.ts";
import { windowsList } from "./windows_list.ts";
import { extensionState } from "./extension_state.ts";
import { extensionLogs } from "./extension_logs.ts";
import { extensionReload } from "./extension_reload.ts";
import { tabsScreenshot } from "./tabs_screenshot.ts";
import { pageConsole } from "./page_console.ts";
import { networkRequests } from "./network_requests.ts";
import { networkRequest } from "./network_request.ts";
import { cookiesGet } from "./cookies_get.ts";
import { filesUpload } from "./files_upload.ts";
import { filesPdf } from "./files_pdf.ts";
import { tabsHandleDialog } from "./tabs_handle_dialog.ts";
import { withDialogGate } from "./dialog_gate.ts";
import { downloadsList } from "./downloads_list.ts";
import { withSiteGate } from "../site_gate.ts";

/** The handler of every method, by name. Add a tool: its method in the table, one file, one line. */
export const BROWSER_HANDLERS: BrowserHandlers = {
  "tabs.list": tabsList,
  "tabs.navigate": tabsNavigate,
  "tabs.open": tabsOpen,
  "tabs.close": tabsClose,
  "tabs.focus": tabsFocus,
  "tabs.reload": tabsReload,
  "tabs.back": tabsBack,
  "tabs.forward": tabsForward,
  "windows.list": windowsList,
  "extension.state": extensionState,
  "extension.logs": extensionLogs,
  "extension.reload": extensionReload,
  "page.text": pageText,
  "page.html": pageHtml,
  "dom.query": domQuery,
  "dom.wait": domWait,
  "dom.click": domClick,
  "dom.type": domType,
  "dom.select": domSelect,
  "dom.key": domKey,
  "dom.scroll": domScroll,
  "dom.hover": domHover,
  "input.clickAt": inputClickAt,
  "input.moveMouse": inputMoveMouse,
  "input.drag": inputDrag,
  "page.snapshot": pageSnapshot,
  "page.waitFor": pageWaitFor,
  "tabs.screenshot": tabsScreenshot,
  "page.console": pageConsole,
  "network.requests": networkRequests,
  "network.request": networkRequest,
  "cookies.get": cookiesGet,
  "scripting.execute": scriptingExecute,
  "files.upload": filesUpload,
  "files.pdf": filesPdf,
  "tabs.handleDialog": tabsHandleDialog,
  "downloads.list": downloadsList,
};

export async function dispatchBrowserTool(
  params: DispatchParams,
  context: MethodContext,
): Promise<DispatchResult> {
  const { method } = params;
  if (!isBrowserMethodName(method)) {
    throw hubError(
      "TOOL_NOT_FOUND",
      `This extension cannot run ${params.tool} (method "${params.method}"). Update the ` +
        'extension: run "hub start" and reload it in chrome://extensions.',
    );
  }
  const { value, origin } = await run(method, params, context);
  const tabId = (value as { tabId?: unknown })?.tabId;
  return {
    ok: true,
    value,
    ...(typeof tabId === "number" ? { tabId } : {}),
    ...(origin === undefined ? {} : { origin }),
  };
}

/**
 * Parses the input with the method's schema, then runs its handler behind the site gate
 * (site_gate.ts) and the dialog gate (dialog_gate.ts).
 */
async function run<M extends BrowserMethodName>(
  method: M,
  params: DispatchParams,
  context: MethodContext,
): Promise<{ value: BrowserResult<M>; origin?: string }> {
  const parsed = parseBrowserInput(method, params.input);
  if (!parsed.ok) {
    throw hubError(
      "INVALID_ARGUMENTS",
      `Invalid arguments for ${clip(params.tool, 100)} (method ${method}): ` +
        `${parsed.problems.join("; ")}.`,
    );
  }
  const handler: BrowserMethod<M> = BROWSER_HANDLERS[method];
  const call: MethodContext = { ...context, frameSite: {} };
  const work = () => handler(parsed.input, call);
  return await withSiteGate(
    method,
    parsed.input,
    call,
    () => withDialogGate(method, parsed.input, context.dialogs, work),
  );
}
