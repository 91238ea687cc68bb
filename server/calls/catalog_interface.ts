/**
 * What the hub's parts need of the tool catalog: find a tool (plugin, browser or management),
 * list tools as GET /tools and tools/list show them, its permission, and the check of its arguments.
 * Declared apart from the implementation (./catalog.ts), so changes/, mcp/, health.ts and the routes
 * depend on this shape only.
 */
import type { Permission } from "../../core/config/schema.ts";
import type { RegisteredPlugin, RegisteredTool } from "../plugins/registry_interface.ts";
import type { JsonSchema } from "../plugins/tool_schema.ts";
import type { RegisteredBrowserTool } from "../browser_tools/browser_tool_interface.ts";
import type { HubTool } from "../management/hub_tool.ts";

/** A tool in `GET /tools`, `tools/list` and `hub_list_tools` (shape in docs/http.md). */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Plugin name; `browser` for built-in browser tools; `hub` for management tools. */
  plugin: string;
  permission: Permission;
}

interface Common {
  name: string;
  displayName: string;
  description: string;
  inputSchema: JsonSchema;
  /** Plugin name, `browser` or `hub`: the key in `permissions`, the audit `plugin` field. */
  group: string;
  /** The tool's key under `permissions.<group>.tools`: base name for plugin tools, else name. */
  permissionKey: string;
}

export type CatalogTool =
  | Common & { kind: "plugin"; plugin: RegisteredPlugin; tool: RegisteredTool }
  | Common & { kind: "browser"; browser: RegisteredBrowserTool }
  | Common & { kind: "hub"; hub: HubTool };

/** Arguments checked against a tool's schema, with the injected parameters split off. */
export type CheckedArgs =
  | { ok: true; input: Record<string, unknown>; tabId?: number; instance?: string }
  | { ok: false; errors: string[] };

export interface Catalog {
  find(name: string): CatalogTool | undefined;
  /** Tools of one group (plugin name, `browser`, `hub`) or all; disabled browser tools left out. */
  list(group?: string): ListedTool[];
  permission(tool: CatalogTool): Permission;
  /** Skip-permissions is on (config or environment): `ask` runs as `auto`, sites too. */
  skipPermissions(): boolean;
  /** Checks arguments; problems come back as at most a handful of short lines. */
  check(tool: CatalogTool, args: Record<string, unknown>): CheckedArgs;
  /** Browser tools turned off through config `disabledBrowserTools`. */
  isDisabled(tool: CatalogTool): boolean;
  groups(): string[];
  /** Why `group` names no plugin (nor `browser`/`hub`), or undefined when it does. */
  groupError(group: string): string | undefined;
  /** Every registered built-in name of a group (`browser`), disabled ones included. */
  allNames(group: string): string[];
}
