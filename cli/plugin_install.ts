/**
 * `hub plugin install <name>` (alias `add`) and `hub plugin update [name] [--check]`: install a
 * plugin package from the npm registry, or its latest version, then have a running hub reload.
 */
import type { HubPaths } from "../core/config/paths.ts";
import type { InstallResult, UpdateCheck } from "../protocol/packages.ts";
import { allowHint, pluginCommandContext, printJson, reloadRunningHub } from "./plugin_context.ts";

export interface PackageCommandOptions {
  json?: boolean;
  port?: string;
}

const REVIEW_HINT = "A new version stays off until it is reviewed: the hub turns off the " +
  "permissions of a plugin whose version changed since they were granted (plugin_inspect, " +
  "plugin_mark_reviewed, then turn it on again).";

export async function pluginInstallCommand(name: string, options: PackageCommandOptions) {
  const ctx = pluginCommandContext();
  const result = await ctx.packages.install(name);
  await report(result, options, ctx.paths);
}

export async function pluginUpdateCommand(
  name: string | undefined,
  options: PackageCommandOptions & { check?: boolean },
) {
  const ctx = pluginCommandContext();
  if (name === undefined || options.check) {
    const check = await ctx.packages.checkUpdates();
    const shown = name === undefined ? check : {
      ...check,
      updates: check.updates.filter((u) => u.name === name || u.plugin === name),
    };
    if (options.json) return printJson(shown);
    return console.log(formatUpdateCheck(shown));
  }
  const result = await ctx.packages.update(name);
  if (result.previousVersion === result.version) {
    if (options.json) return printJson(result);
    return console.log(
      `${result.name} ${result.version} is the latest version; nothing to update.`,
    );
  }
  await report(result, options, ctx.paths);
}

async function report(
  result: InstallResult,
  options: PackageCommandOptions,
  paths: HubPaths,
) {
  if (options.json) {
    printJson(result);
    await reloadRunningHub(options.port, paths, console.error);
    return;
  }
  const what = `${result.name} ${result.version} (plugin "${result.plugin}")`;
  const changed = result.previousVersion !== undefined && result.previousVersion !== result.version;
  console.log(
    result.previousVersion === result.version
      ? `${what} was installed already; npm installed it again.`
      : `Installed ${what}${changed ? `, replacing ${result.previousVersion}` : ""}.`,
  );
  const hub = await reloadRunningHub(options.port, paths);
  if (!hub.running) console.log('No hub is running; "hub start" loads the plugin.');
  console.log(changed ? REVIEW_HINT : allowHint(result.plugin));
}

export function formatUpdateCheck(check: UpdateCheck): string {
  const lines = check.updates.length === 0 ? ["All installed plugin packages are up to date."] : [
    `${check.updates.length} update${check.updates.length === 1 ? "" : "s"} available:`,
    ...check.updates.map((u) =>
      `  ${u.plugin.padEnd(20)} ${u.installedVersion} -> ${u.latestVersion}  (${u.name})`
    ),
    "",
    'Install one with "hub plugin update <name>".',
  ];
  if (check.error) lines.push(`warning: ${check.error}`);
  return lines.join("\n");
}
