/** The tool listing of `GET /tools` (DESIGN.md §4), shared later by MCP and the gateway. */
import type { HubConfig, Permission } from "../config/schema.ts";
import { effectivePermission, listedDescription } from "../permissions/effective.ts";
import type { Registry } from "./registry.ts";
import type { JsonSchema } from "./tool_schema.ts";

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  plugin: string;
  permission: Permission;
}

export function listPluginTools(
  registry: Registry,
  config: HubConfig,
  skipPermissions: boolean,
  plugin?: string,
): ListedTool[] {
  const plugins = registry.plugins.filter((p) => plugin === undefined || p.name === plugin);
  return plugins.flatMap((p) =>
    p.tools.map((tool) => {
      const permission = effectivePermission(config, p.name, tool.baseName, skipPermissions);
      return {
        name: tool.name,
        description: listedDescription(tool.description, permission),
        inputSchema: tool.inputSchema,
        plugin: p.name,
        permission,
      };
    })
  );
}
