/**
 * What the hub's parts need of the plugin lifecycle: discovery at startup, a full reload, and the
 * reload of one local plugin (dev mode). Declared apart from the implementation
 * (./plugin_lifecycle.ts: review resets, gone plugins, announcements), so dev/ depends on this shape
 * only.
 */
import type { PluginReload, ReloadSummary } from "../plugins/plugin_host_interface.ts";

export interface PluginLifecycle {
  /** Discovers plugins at startup (a failure is logged, and the hub runs without plugins). */
  start(): Promise<ReloadSummary>;
  /** Re-reads config and secret and rediscovers plugins; fails with RELOAD_FAILED. */
  reload(): Promise<ReloadSummary>;
  /**
   * Reloads the local plugin in `dir` alone (dev mode), or everything when only a full reload can
   * place it (`full`; it then ran). A broken build is `failed` and changes nothing that serves.
   */
  reloadPlugin(dir: string): Promise<PluginReload>;
}
