/**
 * What happens around a plugin (re)discovery: the startup load, and every reload (`POST /reload`,
 * a settings change, `hub plugin` commands). A reload re-reads config.json and auth.json, swaps in
 * the new registry, enforces reviews (a plugin whose version changed since its review is turned
 * off: docs/decisions/007-permissions-and-reviews.md), tells the extension to remove the
 * adapters of plugins that are gone, closes a link opened with a rotated secret, and announces the
 * new tools. Dev mode reloads one rebuilt plugin alone (`reloadPlugin`): the same review rule, then
 * `plugin.update` to the extension (it re-injects the new adapter into open tabs without reloading
 * them) before the usual announcements.
 */
import type { HubFiles } from "../files/hub_files_interface.ts";
import type { Logger } from "../log/logger_interface.ts";
import type { ExtensionLink } from "../ws/extension_link_interface.ts";
import type { ExtensionDoor } from "../ws/extension_door_interface.ts";
import type { ConfigChanges } from "./config_changes_interface.ts";
import { applyReviewChanges, type ReviewChange, reviewChanges } from "../permissions/review.ts";
import { describeSource } from "../../core/plugin_source/source_identity.ts";
import { hubError } from "../../protocol/errors.ts";
import type { PluginHost, ReloadSummary } from "../plugins/plugin_host_interface.ts";
import type { PluginLifecycle } from "./plugin_lifecycle_interface.ts";

export interface PluginLifecycleDeps {
  plugins: PluginHost;
  files: HubFiles;
  link: Pick<ExtensionLink, "isConnected" | "request" | "notify">;
  door: Pick<ExtensionDoor, "closeIfSecretRotated">;
  changes: Pick<ConfigChanges, "announce" | "state">;
  logger: Logger;
}

/** What the log says when a review reset took a plugin's permissions back. */
export function resetMessage(c: ReviewChange): string {
  const after = ": its permissions are off until it is reviewed again (plugin_inspect, " +
    "plugin_mark_reviewed) and turned on.";
  if (c.unbound) {
    return `Plugin "${c.plugin}" was allowed by name while no single source served it, so the ` +
      `${describeSource(c.source ?? "")} does not inherit that grant${after}`;
  }
  if (c.fromSource === undefined && !c.fromUnrecorded) {
    return `Plugin "${c.plugin}" changed from version ${c.from} to ${c.to}${after}`;
  }
  const now = c.source === undefined
    ? "several sources claim its name"
    : `it is now served by the ${describeSource(c.source)}`;
  const before = c.fromSource === undefined
    ? "an unrecorded source"
    : `the ${describeSource(c.fromSource)}`;
  return `Plugin "${c.plugin}" was reviewed from ${before}, but ${now}${after}`;
}

export function createPluginLifecycle(deps: PluginLifecycleDeps): PluginLifecycle {
  const { plugins, logger } = deps;
  const { config, secret, store } = deps.files;
  const names = () => plugins.registry().plugins.map((p) => p.name);

  /** Resets permissions of plugins whose version or source changed since their review. */
  async function enforceReview() {
    const changes = reviewChanges(
      config.get(),
      plugins.registry().plugins,
      plugins.contested(),
    );
    if (changes.length === 0) return;
    await store.update((c) => applyReviewChanges(c, changes));
    config.refresh();
    for (const c of changes.filter((c) => c.kind === "reset")) logger.warn(resetMessage(c));
  }

  /** Tells the extension to take out the adapters of plugins a reload removed. */
  function uninstallGone(before: string[]) {
    if (!deps.link.isConnected()) return; // it gets the new list with sync.full on connect
    const now = new Set(names());
    for (const plugin of before.filter((name) => !now.has(name))) {
      deps.link.request("plugin.uninstall", { plugin }).catch((error) =>
        logger.warn(`The extension did not remove plugin "${plugin}": ${error.message}`)
      );
    }
  }

  /** Tells the extension first (it re-injects the adapter), then everyone as after a reload. */
  function announcePlugin(name: string) {
    const plugin = deps.changes.state().plugins.find((p) => p.name === name);
    if (plugin) deps.link.notify("plugin.update", { plugin });
    deps.changes.announce("reload");
  }

  async function reload(): Promise<ReloadSummary> {
    try {
      config.refresh();
      secret.refresh();
      const before = names();
      const summary = await plugins.reload();
      await enforceReview();
      uninstallGone(before);
      deps.door.closeIfSecretRotated();
      deps.changes.announce("reload");
      logger.info(`Reloaded: ${summary.plugins} plugin(s) in ${summary.durationMs} ms`);
      return summary;
    } catch (error) {
      const message = (error as Error).message;
      logger.error(`Reload failed: ${message}`);
      throw hubError("RELOAD_FAILED", `Reload failed: ${message}`);
    }
  }

  return {
    start() {
      const started = plugins.load().then(async (summary) => {
        await enforceReview();
        logger.info(`Loaded ${summary.plugins} plugin(s) in ${summary.durationMs} ms`);
        return summary;
      });
      started.catch((e) => logger.error(`Plugin discovery failed: ${(e as Error).message}`));
      return started;
    },
    reload,
    async reloadPlugin(dir) {
      const result = await plugins.reloadPlugin(dir);
      if (result.kind === "full") {
        logger.info(`Reloading every plugin: ${result.reason}`);
        await reload();
      } else if (result.kind === "reloaded") {
        await enforceReview();
        announcePlugin(result.plugin);
        logger.info(`Reloaded plugin "${result.plugin}" in ${result.durationMs} ms`);
      }
      return result;
    },
  };
}
