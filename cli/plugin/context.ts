/**
 * What the `hub plugin` package commands share: the package module set up for the CLI (the real
 * npm, the global root from HUB_NPM_ROOT or `npm root -g`, the config store, progress on a
 * terminal), telling a running hub to reload, and the next step after a change.
 */
import type { HubPaths } from "../../core/config/paths.ts";
import { cliClient, cliConfigStore, cliPaths, warn } from "../../core/client/client_context.ts";
import { UNPROVEN_HUB } from "../../core/client/hub_client.ts";
import { isUserError } from "../../core/cli/user_error.ts";
import { runNpm } from "../../core/process/npm_runner.ts";
import { globalRootFinder } from "../../core/packages/global_root.ts";
import { createPluginPackages, type PluginPackages } from "../../core/packages/plugin_packages.ts";
import type { PackageProgress } from "../../protocol/packages.ts";
import { visibleText } from "../../protocol/visible_text.ts";

export interface PluginCommandContext {
  paths: HubPaths;
  packages: PluginPackages;
  globalRoot: () => Promise<string>;
}

/** Progress lines go to stderr, and only on a terminal: scripts get the result alone. */
function progressPrinter(): ((progress: PackageProgress) => void) | undefined {
  if (!Deno.stderr.isTerminal()) return undefined;
  return (progress) => {
    if (!progress.done) console.error(`… ${visibleText(progress.message)}`);
  };
}

export function pluginCommandContext(): PluginCommandContext {
  const paths = cliPaths();
  const globalRoot = globalRootFinder(runNpm);
  const packages = createPluginPackages({
    globalRoot,
    store: cliConfigStore(paths),
    onProgress: progressPrinter(),
  });
  return { paths, packages, globalRoot };
}

/**
 * Asks a running hub to reload, so that it loads (or drops) the changed plugin. Quiet when no hub
 * runs; a hub that cannot reload now, or a stranger on the port, is a warning: the change itself
 * is done. Returns whether the hub reloaded.
 */
export async function reloadRunningHub(
  port: string | undefined,
  paths: HubPaths,
  say: (line: string) => void = console.log,
): Promise<{ running: boolean; reloaded: boolean }> {
  try {
    const client = await cliClient(port, paths);
    const res = await client.request("POST", "/reload", { timeoutMs: 30_000 });
    if (!res) return { running: false, reloaded: false };
    if (res.status === 200) {
      say(`The hub running on port ${client.port} has reloaded.`);
      return { running: true, reloaded: true };
    }
    const why = res.status === 401
      ? "it refused this machine's secret (was it started with another HUB_CONFIG_DIR?)"
      : res.status === 429
      ? "it was asked to reload too often in the last minute"
      : `HTTP ${res.status}`;
    warn(
      `The hub running on port ${client.port} did not reload (${why}). It loads the change on ` +
        `its next reload: "hub config set" of any key, or a restart.`,
    );
    return { running: true, reloaded: false };
  } catch (error) {
    warn(
      isUserError(error, UNPROVEN_HUB)
        ? error.message
        : `Could not ask the running hub to reload: ${(error as Error).message}`,
    );
    return { running: true, reloaded: false };
  }
}

/** The next step after installing or updating a plugin: it is off until a person allows it. */
export function allowHint(plugin: string): string {
  return `Its tools are off until you allow them: turn it on in the side panel, or run ` +
    `"hub config set plugin-permission.${plugin} ask".`;
}
