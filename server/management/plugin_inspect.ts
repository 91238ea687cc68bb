import { z } from "zod";
import { effectivePermission } from "../permissions/effective.ts";
import { needsReview } from "../permissions/review.ts";
import { type HubTool, type ManagementContext, TOOL_FAILURE } from "./hub_tool.ts";
import { hubError } from "../../protocol/errors.ts";
import { noPluginMessage } from "../plugins/registry.ts";
import type { RegisteredPlugin } from "../plugins/registry_interface.ts";

export function findPlugin(ctx: ManagementContext, name: string): RegisteredPlugin {
  const registry = ctx.registry();
  const plugin = registry.plugin(name);
  if (plugin) return plugin;
  throw hubError(
    "PLUGIN_NOT_FOUND",
    noPluginMessage(name, registry.plugins.map((p) => p.name)),
    undefined,
    TOOL_FAILURE,
  );
}

export const pluginInspect: HubTool = {
  name: "plugin_inspect",
  displayName: "Inspect plugin",
  description: "Show what a plugin is and may do before trusting it: version, source and folder, " +
    "the sites it runs on, each tool with its description, input schema and permission, and " +
    "whether this version still needs review (then all its permissions are off).",
  input: z.object({ plugin: z.string().describe("Plugin short name, e.g. github.") }),
  run(input, ctx) {
    const plugin = findPlugin(ctx, input.plugin as string);
    const config = ctx.config();
    const entry = config.permissions[plugin.name];
    return {
      name: plugin.name,
      displayName: plugin.displayName,
      description: plugin.description,
      version: plugin.version,
      packageName: plugin.packageName,
      source: plugin.source,
      dir: plugin.dir,
      sdkVersion: plugin.sdkVersion,
      urlPatterns: plugin.urlPatterns,
      excludePatterns: plugin.excludePatterns,
      instances: plugin.instances,
      permission: entry?.permission ?? "off",
      reviewedVersion: entry?.reviewedVersion ?? null,
      sourceId: plugin.sourceId,
      reviewedSource: entry?.reviewedSource ?? null,
      needsReview: needsReview(config, plugin) !== undefined,
      tools: plugin.tools.map((t) => ({
        name: t.name,
        displayName: t.displayName,
        description: t.description,
        permission: effectivePermission(config, plugin.name, t.baseName, false),
        inputSchema: t.inputSchema,
      })),
    };
  },
};
