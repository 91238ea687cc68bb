import { z } from "zod";
import { instanceOfUrl } from "../../protocol/plugin_settings.ts";
import { type HubTool, managementError } from "./hub_tool.ts";

export const pluginListTabs: HubTool = {
  name: "plugin_list_tabs",
  displayName: "List plugin tabs",
  description: "List the browser tabs each plugin can run in: the plugin's tab state " +
    "(ready, unavailable = open but not ready, e.g. logged out; closed = no tab), and per tab its " +
    "tabId (pass it as a tool's tabId), url, title, ready flag and instance label.",
  input: z.object({
    plugin: z.string().optional().describe("Only this plugin (short name, e.g. github)."),
  }),
  run(input, ctx) {
    const registry = ctx.registry();
    const name = input.plugin as string | undefined;
    if (name !== undefined && !registry.plugin(name)) {
      const known = registry.plugins.map((p) => p.name).join(", ") || "none";
      throw managementError(
        "PLUGIN_NOT_FOUND",
        "not_found",
        `No plugin "${name}" (plugins: ${known}).`,
      );
    }
    const plugins = registry.plugins.filter((p) => name === undefined || p.name === name);
    return {
      extensionConnected: ctx.extensionConnected(),
      plugins: plugins.map((p) => {
        const { state, tabs } = ctx.tabs.of(p.name);
        return {
          plugin: p.name,
          state,
          tabs: tabs.map((t) => {
            const instance = instanceOfUrl(p.instances, t.url);
            return instance === undefined ? t : { ...t, instance };
          }),
        };
      }),
    };
  },
};
