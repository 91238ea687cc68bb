/**
 * A tool's effective permission (SPEC "Tool permission"): the per-tool override, else the
 * plugin's default, else `off`; with skip-permissions on, `ask` runs as `auto` and `off` stays off.
 */
import type { HubConfig, Permission } from "../config/schema.ts";

export function effectivePermission(
  config: HubConfig,
  plugin: string,
  baseTool: string,
  skipPermissions: boolean,
): Permission {
  const entry = config.permissions[plugin];
  const chosen = entry?.tools?.[baseTool] ?? entry?.permission ?? "off";
  return skipPermissions && chosen === "ask" ? "auto" : chosen;
}

/** The description clients see: off tools are listed, marked `[Disabled]`. */
export function listedDescription(description: string, permission: Permission): string {
  return permission === "off" ? `[Disabled] ${description}` : description;
}
