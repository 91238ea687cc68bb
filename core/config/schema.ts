/** The shape of `config.json`, its defaults, and validation with messages a person can act on. */
import { z } from "zod";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { isReservedKey } from "../../protocol/safe_keys.ts";
import { permissionSchema as permission } from "../../protocol/permission.ts";
import { debuggerModeSchema } from "../../protocol/debugger_mode.ts";
import { sitePermissionsSchema } from "../../protocol/site_permissions.ts";

export { type Permission, PERMISSIONS } from "../../protocol/permission.ts";
export { PLUGIN_NAME_PATTERN, RESERVED_PLUGIN_NAMES } from "../../protocol/plugin_manifest.ts";

/** Port of the hub unless configured otherwise. */
export const DEFAULT_PORT = 9515;

// Loose: keys hub does not know inside an entry are kept, not silently dropped on rewrite.
export const pluginPermissionSchema = z.looseObject({
  permission: permission.default("off"),
  tools: z.record(z.string(), permission).default({}),
  reviewedVersion: z.string().optional(),
  /**
   * Where the reviewed version came from (`npm:<package>` or `local:<folder>`): with
   * `reviewedVersion`, the reviewed identity. Another source with the plugin's name starts off.
   */
  reviewedSource: z.string().optional(),
  /**
   * Set when a person granted a permission by name while no single source served the name: the
   * grant belongs to no source, so whichever source serves the name later starts off.
   */
  unboundGrant: z.literal(true).optional(),
});
export type PluginPermissionConfig = z.infer<typeof pluginPermissionSchema>;

export const configSchema = z.object({
  localPlugins: z.array(z.string()).default([]),
  permissions: z.record(z.string(), pluginPermissionSchema).default({}),
  port: z.number().int().min(1).max(65535).default(DEFAULT_PORT),
  localPluginDirs: z.array(z.string()).default([]),
  settings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  additionalAllowedDirectories: z.array(z.string()).default([]),
  telemetry: z.boolean().default(true),
  updateCheckIntervalMinutes: z.number().min(0).default(30),
  /** Built-in browser tools turned off: not listed, and calls fail with TOOL_DISABLED. */
  disabledBrowserTools: z.array(z.string()).default([]),
  /** Set from the side panel: run `ask` tools as `auto` (off stays off). */
  skipPermissions: z.boolean().default(false),
  /**
   * Whether the extension may attach Chromium's debugger to a tab when a call needs it (`auto`),
   * or never (`off`: DOM events where a tool has them, else DEBUGGER_OFF).
   */
  debugger: debuggerModeSchema.default("auto"),
  /**
   * Site permissions of the built-in browser tools: canonical pattern (`example.com`,
   * `*.example.com`, `127.0.0.1:8080`, `https://app.example.com:8443`) → off, ask or auto.
   */
  sitePermissions: sitePermissionsSchema.default({}),
  /** A site no rule in `sitePermissions` matches: `ask` on a new install. */
  defaultSitePermission: permission.default("ask"),
  /** Browser tools act only on tabs in the "hub" tab group, plus tabs they open themselves. */
  agentTabsOnly: z.boolean().default(false),
});
export type HubConfig = z.infer<typeof configSchema>;

export const CONFIG_KEYS = Object.keys(configSchema.shape) as (keyof HubConfig)[];

/** A config with every field at its default. */
export function defaultConfig(): HubConfig {
  return configSchema.parse({});
}

export interface ParsedConfig {
  config: HubConfig;
  /** Top-level keys hub does not know; kept in the file, reported as warnings. */
  unknownKeys: string[];
  /** The unknown keys' values, so a rewrite keeps them. */
  extra: Record<string, unknown>;
  /**
   * Keys named like Object.prototype members (`constructor`, `__proto__`…) that were left out,
   * with where they were (`permissions.demo.tools`); a rewrite drops them.
   */
  droppedKeys: DroppedKey[];
}

export interface DroppedKey {
  where: string;
  key: string;
}

/**
 * A copy of `map` without reserved keys (recorded in `dropped` under `where`); when `inner` is
 * given, it cleans each value too. Values that are not objects are left for the schema to report.
 */
function withoutReserved(
  map: unknown,
  where: string,
  dropped: DroppedKey[],
  inner?: (value: unknown, where: string) => unknown,
): unknown {
  if (!isPlainObject(map)) return map;
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(map)) {
    if (isReservedKey(key)) dropped.push({ where, key });
    else entries.push([key, inner ? inner(value, `${where}.${key}`) : value]);
  }
  return Object.fromEntries(entries);
}

/** The config object with reserved keys left out of every map keyed by a user-chosen name. */
function dropReservedKeys(value: Record<string, unknown>, dropped: DroppedKey[]) {
  const top = withoutReserved(value, "(top level)", dropped) as Record<string, unknown>;
  const permissionEntry = (entry: unknown, where: string) =>
    isPlainObject(entry)
      ? { ...entry, tools: withoutReserved(entry.tools, `${where}.tools`, dropped) }
      : entry;
  if (Object.hasOwn(top, "permissions")) {
    top.permissions = withoutReserved(top.permissions, "permissions", dropped, permissionEntry);
  }
  if (Object.hasOwn(top, "sitePermissions")) {
    top.sitePermissions = withoutReserved(top.sitePermissions, "sitePermissions", dropped);
  }
  if (Object.hasOwn(top, "settings")) {
    top.settings = withoutReserved(
      top.settings,
      "settings",
      dropped,
      (settings, where) => withoutReserved(settings, where, dropped),
    );
  }
  return top;
}

/**
 * Validates a parsed JSON value as a hub config. Throws an Error listing every problem as
 * `field.path: what is wrong`; the caller adds the file name and the fix.
 */
export function validateConfig(value: unknown): ParsedConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("the file must hold a JSON object ({ ... })");
  }
  const droppedKeys: DroppedKey[] = [];
  const cleaned = dropReservedKeys(value as Record<string, unknown>, droppedKeys);
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
      return `${where}: ${issue.message}`;
    });
    throw new Error(problems.join("; "));
  }
  const extra: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(cleaned)) {
    if (!(CONFIG_KEYS as string[]).includes(key)) extra[key] = v;
  }
  return { config: result.data, unknownKeys: Object.keys(extra), extra, droppedKeys };
}
