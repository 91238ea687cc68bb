/**
 * A plugin-management tool (`plugin_list_tabs`, `plugin_inspect`, `plugin_mark_reviewed`): runs in
 * the hub itself, not in the browser. These tools only read state or record a review (which never
 * grants a permission), so they need no permission and run for every client; they are audited
 * under the plugin name `hub`. They fail with a `HubError` marked `TOOL_FAILURE`: a call reports it
 * as the tool's own error (like a plugin's ToolError), 422 over REST.
 */
import type { z } from "zod";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import type { TabStates } from "../plugins/tab_states_interface.ts";

/** The options of a management tool's own failure (`hubError(code, message, details, …)`). */
export const TOOL_FAILURE = { fromTool: true } as const;

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
