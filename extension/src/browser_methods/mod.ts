/** The method router for built-in tools: `tool.dispatch` with `kind: "browser"` lands here. */
import type { DispatchParams, DispatchResult } from "../../../protocol/events.ts";
import { hubError } from "../../../protocol/errors.ts";
import { CallFailure } from "../tab_calls.ts";
import type { BrowserMethod, MethodContext } from "./browser_method.ts";
import { domClick } from "./dom_click.ts";
import { scriptingExecute } from "./scripting_execute.ts";
import { tabsList } from "./tabs_list.ts";
import { tabsNavigate } from "./tabs_navigate.ts";
import { tabsScreenshot } from "./tabs_screenshot.ts";

/** Every method this extension can run, by name. Add a tool: one file, one line here. */
export const BROWSER_METHODS: Record<string, BrowserMethod> = {
  "tabs.list": tabsList,
  "tabs.navigate": tabsNavigate,
  "dom.click": domClick,
  "tabs.screenshot": tabsScreenshot,
  "scripting.execute": scriptingExecute,
};

export async function dispatchBrowserTool(
  params: DispatchParams,
  context: MethodContext,
): Promise<DispatchResult> {
  const method = params.method && Object.hasOwn(BROWSER_METHODS, params.method)
    ? BROWSER_METHODS[params.method]
    : undefined;
  if (!method) {
    throw new CallFailure(hubError(
      "TOOL_NOT_FOUND",
      `This extension cannot run ${params.tool} (method "${params.method}"). Update the ` +
        'extension: run "hub start" and reload it in chrome://extensions.',
    ));
  }
  const value = await method(params.input, context);
  const tabId = (value as { tabId?: unknown })?.tabId;
  return typeof tabId === "number" ? { ok: true, value, tabId } : { ok: true, value };
}
