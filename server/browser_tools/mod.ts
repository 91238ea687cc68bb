/**
 * Every built-in browser tool, in listing order. Add a tool: its method in
 * protocol/browser_methods/, one file here, one line below.
 */
import { registerBrowserTool } from "./browser_tool.ts";
import type { RegisteredBrowserTool } from "./browser_tool_interface.ts";
import { listTabs } from "./list_tabs.ts";
import { navigateTab } from "./navigate_tab.ts";
import { openTab } from "./open_tab.ts";
import { closeTab } from "./close_tab.ts";
import { focusTab } from "./focus_tab.ts";
import { reloadTab } from "./reload_tab.ts";
import { goBack } from "./go_back.ts";
import { goForward } from "./go_forward.ts";
import { listWindows } from "./list_windows.ts";
import { extensionGetState } from "./extension_get_state.ts";
import { extensionGetLogs } from "./extension_get_logs.ts";
import { extensionReload } from "./extension_reload.ts";
import { getPageText } from "./get_page_text.ts";
import { getPageHtml } from "./get_page_html.ts";
import { queryElements } from "./query_elements.ts";
import { waitForElement } from "./wait_for_element.ts";
import { clickElement } from "./click_element.ts";
import { typeText } from "./type_text.ts";
import { selectOption } from "./select_option.ts";
import { pressKey } from "./press_key.ts";
import { scroll } from "./scroll.ts";
import { hoverElement } from "./hover_element.ts";
import { clickAt } from "./click_at.ts";
import { moveMouse } from "./move_mouse.ts";
import { drag } from "./drag.ts";
import { handleDialog } from "./handle_dialog.ts";
import { snapshot } from "./snapshot.ts";
import { waitFor } from "./wait_for.ts";
import { screenshotTab } from "./screenshot_tab.ts";
import { getConsoleLogs } from "./get_console_logs.ts";
import { networkRequests } from "./network_requests.ts";
import { networkRequest } from "./network_request.ts";
import { getCookies } from "./get_cookies.ts";
import { executeScript } from "./execute_script.ts";
import { uploadFile } from "./upload_file.ts";
import { savePdf } from "./save_pdf.ts";
import { listDownloads } from "./list_downloads.ts";

export const BROWSER_TOOLS = [
  listTabs,
  navigateTab,
  openTab,
  closeTab,
  focusTab,
  reloadTab,
  goBack,
  goForward,
  listWindows,
  snapshot,
  getPageText,
  getPageHtml,
  queryElements,
  waitForElement,
  waitFor,
  clickElement,
  typeText,
  selectOption,
  pressKey,
  scroll,
  hoverElement,
  clickAt,
  moveMouse,
  drag,
  handleDialog,
  screenshotTab,
  getConsoleLogs,
  networkRequests,
  networkRequest,
  getCookies,
  executeScript,
  listDownloads,
  uploadFile,
  savePdf,
  extensionGetState,
  extensionGetLogs,
  extensionReload,
];

/** The declarations, once per hub; each JSON Schema is derived on first use (browser_tool.ts). */
export function registerBrowserTools(tools = BROWSER_TOOLS): RegisteredBrowserTool[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool.name)) throw new Error(`Browser tool "${tool.name}" is declared twice.`);
    seen.add(tool.name);
    return registerBrowserTool(tool);
  });
}
