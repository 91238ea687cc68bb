/** The plugin-management tools, in listing order. */
import type { HubTool } from "./hub_tool.ts";
import { pluginListTabs } from "./plugin_list_tabs.ts";
import { pluginInspect } from "./plugin_inspect.ts";
import { pluginMarkReviewed } from "./plugin_mark_reviewed.ts";

export const HUB_TOOLS: HubTool[] = [pluginListTabs, pluginInspect, pluginMarkReviewed];
