/**
 * `hub plugin install <name>` (alias `add`) and `hub plugin update [name] [--check]`: install a
 * plugin package from the npm registry, or its latest version, then have a running hub reload.
 */
import { join } from "node:path";
import { cliClient, cliConfigStore } from "../../core/client/client_context.ts";
import type { FailedPlugin } from "../../protocol/health.ts";
import type { InstallResult, UpdateCheck } from "../../protocol/packages.ts";
import { type PluginCommandContext, pluginCommandContext, reloadRunningHub } from "./context.ts";
import { printJson } from "../json_output.ts";
import { broadLine, failedLine, notLinkedLine, permissionLine } from "./outcome.ts";
import { visibleText } from "../../protocol/visible_text.ts";

export interface PackageCommandOptions {
  json?: boolean;
  port?: string;
}

const REVIEW_HINT = "A new version stays off until it is reviewed: the hub turns off the " +
  "permissions of a plugin whose version or source changed since they were granted " +
  "(plugin_inspect, plugin_mark_reviewed, then turn it on again).";

export async function pluginInstallCommand(name: string, options: PackageCommandOptions) {
  const ctx = pluginCommandContext();
  const result = await ctx.packages.install(name);
  await report(result, options, ctx);
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
  await report(result, options, ctx);
}

async function report(
  result: InstallResult,
  options: PackageCommandOptions,
  ctx: PluginCommandContext,
) {
  if (options.json) {
    printJson(result);
    await reloadRunningHub(options.port, ctx.paths, console.error);
    return;
  }
  // Names, versions, programs and errors come from the package: escaped, one line each.
  const what = visibleText(`${result.name} ${result.version} (plugin "${result.plugin}")`);
  const changed = result.previousVersion !== undefined && result.previousVersion !== result.version;
  console.log(
    result.previousVersion === result.version
      ? `${what} was installed already; npm installed it again.`
      : `Installed ${what}${changed ? `, replacing ${visibleText(result.previousVersion!)}` : ""}.`,
  );
  for (const line of [broadLine(result.plugin, result.urlPatterns), notLinkedLine(result)]) {
    if (line) console.log(visibleText(line));
  }
  const hub = await reloadRunningHub(options.port, ctx.paths);
  if (!hub.running) console.log('No hub is running; "hub start" loads the plugin.');
  const failed = hub.reloaded ? await failureOf(result, options.port, ctx) : undefined;
  if (failed) return console.log(visibleText(failedLine(failed) ?? ""));
  const config = await cliConfigStore(ctx.paths).load();
  const line = permissionLine(config, result);
  console.log(changed && line.kind === "none" ? `${line.text} ${REVIEW_HINT}` : line.text);
}

/** The running hub's reason for not loading the package just installed, if it did not. */
async function failureOf(
  result: InstallResult,
  port: string | undefined,
  ctx: PluginCommandContext,
): Promise<FailedPlugin | undefined> {
  try {
    const dir = join(await ctx.globalRoot(), result.name);
    const health = await (await cliClient(port, ctx.paths)).health();
    return health?.failedPlugins.find((f) => f.path === dir);
  } catch {
    return undefined; // the install is done; the hub's own log says why it did not load it
  }
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
  return lines.map((line) => visibleText(line)).join("\n");
}
