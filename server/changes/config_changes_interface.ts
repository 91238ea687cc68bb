/**
 * What the hub's parts need of the config changes: the side panel's state, announcements (and
 * hearing them), and the permission, skip-switch and review changes. Declared apart from the
 * implementation (./config_changes.ts: write, then announce), so dev/ and the extension handlers
 * depend on this shape only.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import type { DebuggerMode } from "../../protocol/debugger_mode.ts";
import type { CatalogTool } from "../calls/catalog_interface.ts";
import type { syncFull } from "./sync_state.ts";
import type { PermissionTarget } from "./permission_update.ts";

export type AnnounceReason = "reload" | "permissions";

/** The `sync.full` payload, which is also the side panel's state (`config.getState`). */
export type SyncState = ReturnType<typeof syncFull>;

export interface ConfigChanges {
  state(): SyncState;
  /** Tells the extension and MCP clients that tools or permissions changed. */
  announce(reason: AnnounceReason): void;
  /**
   * Called on every announcement (MCP sessions send `tools/list_changed`), with the config the
   * announcement's `sync.full` carried.
   */
  onAnnounce(listener: (reason: AnnounceReason, config: HubConfig) => void): void;
  /** Sets a plugin's or a tool's permission; an unknown target is INVALID_ARGUMENTS. */
  setPermission(target: PermissionTarget, permission: Permission): Promise<void>;
  setSkipPermissions(enabled: boolean): Promise<void>;
  /** The config's `debugger` (the side panel's Debugger switch). */
  setDebugger(mode: DebuggerMode): Promise<void>;
  /**
   * One site rule of the built-in browser tools set, or removed (`null`). The pattern is stored
   * canonically; an invalid one, or a 501st rule, is INVALID_ARGUMENTS saying how to write it.
   * "Always allow this site" is `setSitePermission(site.key, "auto")`.
   */
  setSitePermission(pattern: string, permission: Permission | null): Promise<void>;
  /** The permission of sites no rule names, and whether browser tools keep to the agent's tabs. */
  setSiteDefaults(
    defaults: { defaultSitePermission?: Permission; agentTabsOnly?: boolean },
  ): Promise<void>;
  /** "Always allow" from a confirmation: a per-tool `auto`. */
  allowAlways(tool: CatalogTool): Promise<void>;
  /** Records the reviewed version and source of a plugin; returns the updated config. */
  markReviewed(plugin: string, version: string, sourceId: string): Promise<HubConfig>;
}
