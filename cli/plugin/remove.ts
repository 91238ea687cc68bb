/**
 * `hub plugin remove <name> -y/--confirm` (alias `rm`): uninstalls the plugin package and removes
 * the localPlugins entries that point at the plugin, then has a running hub reload (which tells the
 * extension to drop its adapter). Without the flag it names what would be removed and exits 1.
 */
import { dirname } from "node:path";
import { UserError } from "../../core/cli/user_error.ts";
import { cliConfigStore } from "../../core/client/client_context.ts";
import { listLocalPlugins } from "../../core/packages/local_plugins.ts";
import { planRemoval, type RemovalPlan } from "../../core/packages/package_remove.ts";
import type { RemoveResult } from "../../protocol/packages.ts";
import { pluginCommandContext, reloadRunningHub } from "./context.ts";
import { printJson } from "../json_output.ts";

export interface RemoveOptions {
  confirm?: boolean;
  json?: boolean;
  port?: string;
}

export function describePlan(plan: RemovalPlan): string {
  const parts = [
    ...(plan.target
      ? [`the package ${plan.target.name} ${plan.target.version} (${plan.target.dir})`]
      : []),
    ...plan.entries.map((entry) => `the localPlugins entry ${entry}`),
  ];
  return parts.join(" and ") + keptText(plan.foldersKept);
}

/**
 * What stays: plugin folders inside a localPluginDirs folder claiming the plugin. One of them may
 * be what serves it (a local plugin overrides a package), so removing the package alone would
 * leave it serving without a word.
 */
function keptText(folders: string[] | undefined): string {
  if (!folders?.length) return "";
  const one = folders.length === 1;
  return `. The plugin folder${one ? "" : "s"} ${folders.join(", ")} inside a localPluginDirs ` +
    `folder stay${one ? "s" : ""}, and the hub keeps loading ${one ? "it" : "them"}: hub ` +
    `deletes no folder, so move or delete ${one ? "it" : "them"} yourself, or take the parent ` +
    'folder out of "localPluginDirs" in config.json';
}

export async function pluginRemoveCommand(name: string, options: RemoveOptions) {
  const ctx = pluginCommandContext();
  if (!options.confirm) {
    const store = cliConfigStore(ctx.paths);
    const root = await ctx.globalRoot();
    const locals = await listLocalPlugins(await store.load(), dirname(store.path));
    const plan = planRemoval(name, root, await ctx.packages.installed(), locals);
    throw new UserError(
      `This removes ${describePlan(plan)}. Nothing was changed; run ` +
        `"hub plugin remove ${name.trim()} --confirm" to do it.`,
    );
  }
  const result = await ctx.packages.remove(name);
  if (options.json) {
    printJson(result);
    await reloadRunningHub(options.port, ctx.paths, console.error);
    return;
  }
  console.log(formatRemoved(result));
  await reloadRunningHub(options.port, ctx.paths);
}

export function formatRemoved(result: RemoveResult): string {
  const parts = [
    ...(result.uninstalled ? [`uninstalled ${result.name}`] : []),
    ...(result.localPluginsRemoved.length > 0
      ? [`removed ${result.localPluginsRemoved.join(", ")} from localPlugins (the folder stays)`]
      : []),
  ];
  const text = parts.join("; ") + keptText(result.foldersKept);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
