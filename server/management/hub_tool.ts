/**
 * A plugin-management tool (`plugin_list_tabs`, `plugin_inspect`, `plugin_mark_reviewed`): runs in
 * the hub itself, not in the browser. These tools only read state or record a review (which never
 * grants a permission), so they need no permission and run for every client; they are audited
 * under the plugin name `hub`. They fail with a `DomainError`, which a call reports as the tool's
 * own error (like a plugin's ToolError).
 */
import type { z } from "zod";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Registry } from "../plugins/registry.ts";
import type { TabStates } from "../plugins/tab_states.ts";

export const HUB_TOOL_GROUP = "hub";

export interface ManagementContext {
  registry(): Registry;
  config(): HubConfig;
  tabs: TabStates;
  extensionConnected(): boolean;
  /** Records the reviewed version and source of a plugin; returns the updated config. */
  markReviewed(plugin: string, version: string, sourceId: string): Promise<HubConfig>;
}

export interface HubTool {
  name: string;
  displayName: string;
  description: string;
  input: z.ZodObject;
  run(input: Record<string, unknown>, ctx: ManagementContext): unknown | Promise<unknown>;
}
