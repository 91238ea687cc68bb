import { z } from "zod";
import { type HubTool, TOOL_FAILURE } from "./hub_tool.ts";
import { hubError } from "../../protocol/errors.ts";
import { findPlugin } from "./plugin_inspect.ts";

export const pluginMarkReviewed: HubTool = {
  name: "plugin_mark_reviewed",
  displayName: "Mark plugin reviewed",
  description:
    "Record that the installed version of a plugin was reviewed (after plugin_inspect). " +
    "This grants nothing: permissions a version change turned off stay off until a person turns " +
    "them on in the side panel or with hub config set.",
  input: z.object({
    plugin: z.string().describe("Plugin short name."),
    version: z.string().optional().describe(
      "The version you inspected; the call fails if another version is installed now.",
    ),
  }),
  async run(input, ctx) {
    const plugin = findPlugin(ctx, input.plugin as string);
    if (input.version !== undefined && input.version !== plugin.version) {
      throw hubError(
        "VERSION_MISMATCH",
        `Plugin "${plugin.name}" is at version ${plugin.version}, not ${input.version}. ` +
          `Inspect it again (plugin_inspect) before marking it reviewed.`,
        undefined,
        TOOL_FAILURE,
      );
    }
    const config = await ctx.markReviewed(plugin.name, plugin.version, plugin.sourceId);
    const entry = config.permissions[plugin.name];
    return {
      plugin: plugin.name,
      reviewedVersion: plugin.version,
      reviewedSource: plugin.sourceId,
      permission: entry?.permission ?? "off",
    };
  },
};
