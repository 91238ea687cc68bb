import { z } from "zod";
import { instanceOfUrl } from "../../protocol/plugin_settings.ts";
import type { HubTool } from "./hub_tool.ts";
import { findPlugin } from "./plugin_inspect.ts";

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
    const name = input.plugin as string | undefined;
    const plugins = name === undefined ? ctx.registry().plugins : [findPlugin(ctx, name)];
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
