/**
 * A tool's effective permission (docs/decisions/007-permissions-and-reviews.md): the per-tool override, else the
 * plugin's default, else `off`; with skip-permissions on, `ask` runs as `auto` and `off` stays off.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import { ownValue } from "../../protocol/safe_keys.ts";

export function effectivePermission(
  config: HubConfig,
  plugin: string,
  baseTool: string,
  skipPermissions: boolean,
): Permission {
  // Own properties only: a tool named `constructor` must not find Object's constructor.
  const entry = ownValue(config.permissions, plugin);
  const chosen = ownValue(entry?.tools, baseTool) ?? entry?.permission ?? "off";
  return skipPermissions && chosen === "ask" ? "auto" : chosen;
}

/** The description clients see: off tools are listed, marked `[Disabled]`. */
export function listedDescription(description: string, permission: Permission): string {
  return permission === "off" ? `[Disabled] ${description}` : description;
}

/**
 * Whether permissions are skipped (`ask` runs as `auto`): forced by the environment
 * (HUB_DANGEROUSLY_SKIP_PERMISSIONS=1), or switched on in config.json (the side panel switch).
 */
export function skipsPermissions(forced: boolean, config: HubConfig): boolean {
  return forced || config.skipPermissions;
}
