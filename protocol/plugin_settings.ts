/**
 * A plugin's settings (`config.json` → `settings.<plugin>`) checked against its `configSchema`,
 * and resolved with defaults for the page. A `url` field holds instances: a map from instance name
 * to URL; a single URL string is accepted and means one instance named "default".
 * Pure and DOM-safe.
 */
import type { ConfigField, ConfigSchema } from "./plugin_manifest.ts";
import { ownValue, reservedKeyError } from "./safe_keys.ts";
import { clipForMessage } from "./clip.ts";

export type Settings = Record<string, unknown>;
export const DEFAULT_INSTANCE = "default";
const INSTANCE_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}$/;
/** Problems listed in one message at most; the rest are counted. */
const MAX_PROBLEMS = 10;

/** Turns a stored url value (string or map) into an instance map; undefined when unset. */
export function instanceMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return { [DEFAULT_INSTANCE]: value };
  if (typeof value === "object" && !Array.isArray(value)) return value as Record<string, string>;
  return undefined;
}

function checkUrl(url: unknown): string | undefined {
  if (typeof url !== "string") return "must be a URL string";
  try {
    const parsed = new URL(url);
    if (!["http:", "https:"].includes(parsed.protocol)) return `"${url}" must be an http(s) URL`;
  } catch {
    return `"${url}" is not a valid URL (for example "https://app.example.com")`;
  }
  return undefined;
}

function checkUrlField(value: unknown): string | undefined {
  if (typeof value !== "string" && (typeof value !== "object" || value === null)) {
    return 'must be a URL or a map of instance names to URLs ({"work": "https://..."})';
  }
  if (Array.isArray(value)) return "must be a URL or a map of instance names to URLs, not a list";
  const map = instanceMap(value) ?? {};
  for (const [name, url] of Object.entries(map)) {
    if (!INSTANCE_NAME.test(name)) {
      return `instance name "${
        clipForMessage(name)
      }" must be 1-40 letters, digits, spaces, ".", "_" or "-"`;
    }
    const reserved = reservedKeyError(name, "instance");
    if (reserved) return reserved;
    const problem = checkUrl(url);
    if (problem) return `instance "${name}": ${problem}`;
  }
  return undefined;
}

/** What is wrong with one setting value, or undefined when it fits its field. */
export function settingValueError(field: ConfigField, value: unknown): string | undefined {
  switch (field.type) {
    case "url":
      return checkUrlField(value);
    case "select":
      return typeof value === "string" && field.options.includes(value)
        ? undefined
        : `must be one of ${field.options.map((o) => `"${o}"`).join(", ")}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.integer && !Number.isInteger(value)) return "must be a whole number";
      if (field.min !== undefined && value < field.min) return `must be at least ${field.min}`;
      if (field.max !== undefined && value > field.max) return `must be at most ${field.max}`;
      return undefined;
    }
  }
}

/**
 * The problems of a settings object against a schema, as `key: problem` lines: at most
 * MAX_PROBLEMS of them, then one line counting the rest. Only the schema's own fields are
 * settings; names of Object.prototype members are refused as keys.
 */
export function settingsErrors(schema: ConfigSchema | undefined, settings: Settings): string[] {
  const fields = schema ?? {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    let problem = settingKeyError(fields, key);
    // null clears a setting
    if (!problem && value !== null) problem = settingValueError(ownValue(fields, key)!, value);
    if (problem) problems.push(`${clipForMessage(key)}: ${problem}`);
  }
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [
    ...problems.slice(0, MAX_PROBLEMS),
    `and ${problems.length - MAX_PROBLEMS} more problems`,
  ];
}

/** Why `key` is not a setting of a plugin with these fields, or undefined when it is. */
function settingKeyError(fields: ConfigSchema, key: string): string | undefined {
  const reserved = reservedKeyError(key, "setting");
  if (reserved) return reserved;
  if (ownValue(fields, key)) return undefined;
  const known = Object.keys(fields);
  return "not a setting of this plugin" +
    (known.length ? ` (settings: ${known.join(", ")})` : " (it has no settings)");
}

/**
 * The settings the page sees: stored values over defaults, url fields as instance maps. Values
 * that do not fit the schema (edited by hand) fall back to the default instead of reaching a tool.
 */
export function resolveSettings(schema: ConfigSchema | undefined, stored: Settings = {}): Settings {
  const resolved: Settings = {};
  for (const [key, field] of Object.entries(schema ?? {})) {
    const value = ownValue(stored, key);
    const usable = value !== undefined && value !== null && !settingValueError(field, value);
    const chosen = usable ? value : field.default;
    if (chosen === undefined) continue;
    resolved[key] = field.type === "url" ? instanceMap(chosen) : chosen;
  }
  return resolved;
}

/** A plugin's instances: its first url field's resolved map of instance name → URL. */
export function instancesOf(
  schema: ConfigSchema | undefined,
  resolved: Settings,
): Record<string, string> {
  const urlKey = Object.entries(schema ?? {}).find(([, f]) => f.type === "url")?.[0];
  const map = urlKey ? resolved[urlKey] : undefined;
  return map && typeof map === "object" ? map as Record<string, string> : {};
}

/** The instance names of a plugin. */
export function instanceNames(schema: ConfigSchema | undefined, resolved: Settings): string[] {
  return Object.keys(instancesOf(schema, resolved));
}

/** Required settings that have no value yet (a plugin may refuse to run without them). */
export function missingRequired(schema: ConfigSchema | undefined, resolved: Settings): string[] {
  return Object.entries(schema ?? {})
    .filter(([key, f]) => f.type === "url" && f.required && resolved[key] === undefined)
    .map(([key]) => key);
}

/**
 * The instance a tab belongs to: the instance whose URL has the tab's origin and a path the
 * tab's path starts with; the longest such URL wins. Undefined when none matches.
 */
export function instanceOfUrl(
  instances: Record<string, string>,
  tabUrl: string,
): string | undefined {
  let tab: URL;
  try {
    tab = new URL(tabUrl);
  } catch {
    return undefined;
  }
  let best: { name: string; length: number } | undefined;
  for (const [name, raw] of Object.entries(instances)) {
    let base: URL;
    try {
      base = new URL(raw);
    } catch {
      continue;
    }
    const path = base.pathname.replace(/\/+$/, "");
    const matches = base.origin === tab.origin &&
      (path === "" || tab.pathname === path || tab.pathname.startsWith(`${path}/`));
    if (matches && (!best || path.length > best.length)) best = { name, length: path.length };
  }
  return best?.name;
}
