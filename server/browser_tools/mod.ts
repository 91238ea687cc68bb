/** Every built-in browser tool, in listing order. Add a tool: one file, one line here. */
import { registerBrowserTool, type RegisteredBrowserTool } from "./browser_tool.ts";
import { listTabs } from "./list_tabs.ts";
import { navigateTab } from "./navigate_tab.ts";
import { clickElement } from "./click_element.ts";
import { screenshotTab } from "./screenshot_tab.ts";
import { executeScript } from "./execute_script.ts";

export const BROWSER_TOOLS = [listTabs, navigateTab, clickElement, screenshotTab, executeScript];

/** The declarations with their JSON Schemas; built once per hub. */
export function registerBrowserTools(tools = BROWSER_TOOLS): RegisteredBrowserTool[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool.name)) throw new Error(`Browser tool "${tool.name}" is declared twice.`);
    seen.add(tool.name);
    return registerBrowserTool(tool);
  });
}
