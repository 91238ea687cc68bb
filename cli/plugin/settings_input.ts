/**
 * Reading a plugin setting typed by a person (a prompt of `hub plugin configure`) or given as
 * `--set key=value`: text turned into the value its `configSchema` field holds, then checked by the
 * hub's own rules (protocol/plugin_settings.ts). A `url` field takes a URL or `name=url` pairs
 * separated by commas (its instances). Pure, except for the prompt function passed in.
 */
import type { ConfigField, ConfigSchema } from "../../protocol/plugin_manifest.ts";
import { instanceMap, settingValueError } from "../../protocol/plugin_settings.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { visibleText } from "../../protocol/visible_text.ts";

/** A value to store, or null to clear the setting. */
export type SettingValue = unknown | null;

const TRUE = ["true", "yes", "y", "on", "1"];
const FALSE = ["false", "no", "n", "off", "0"];

/** What to type for a field, for prompts and messages. */
export function fieldHint(field: ConfigField): string {
  switch (field.type) {
    case "url":
      return "a URL, or name=url pairs separated by commas";
    case "select":
      return field.options.join(" | ");
    case "boolean":
      return "yes | no";
    case "number": {
      const range = [
        field.min !== undefined ? `>= ${field.min}` : "",
        field.max !== undefined ? `<= ${field.max}` : "",
      ].filter(Boolean).join(", ");
      return `${field.integer ? "a whole number" : "a number"}${range ? ` (${range})` : ""}`;
    }
  }
}

function parseInstances(text: string): unknown {
  if (text.startsWith("{")) {
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(
        'is not valid JSON (or write name=url pairs: "work=https://a, home=https://b")',
      );
    }
  }
  if (!text.includes("=")) return text;
  const map: Record<string, string> = {};
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`"${clipForMessage(pair)}" is not a name=url pair`);
    map[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return map;
}

/** The value `text` stands for in `field`; throws an Error saying what fits. "-" clears. */
export function parseSettingText(field: ConfigField, text: string): SettingValue {
  const raw = text.trim();
  if (raw === "-" || raw === "") return null;
  let value: unknown;
  switch (field.type) {
    case "url":
      value = parseInstances(raw);
      break;
    case "select": {
      const index = /^\d+$/.test(raw) ? Number(raw) - 1 : -1;
      value = field.options[index] ?? raw;
      break;
    }
    case "boolean":
      if (TRUE.includes(raw.toLowerCase())) value = true;
      else if (FALSE.includes(raw.toLowerCase())) value = false;
      else throw new Error(`"${clipForMessage(raw)}" is not yes or no`);
      break;
    case "number":
      value = Number(raw);
      break;
  }
  const problem = settingValueError(field, value);
  if (problem) throw new Error(problem);
  return value;
}

/** A stored value as the text a prompt shows as its default. */
export function settingText(field: ConfigField, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (field.type === "url") {
    const map = instanceMap(value);
    if (!map) return "";
    const entries = Object.entries(map);
    if (entries.length === 1 && typeof value === "string") return value;
    return entries.map(([name, url]) => `${name}=${url}`).join(", ");
  }
  if (field.type === "boolean") return value ? "yes" : "no";
  return String(value);
}

function fieldOf(schema: ConfigSchema, key: string): ConfigField {
  const field = ownValue(schema, key);
  if (!field) {
    throw new UserError(
      `"${clipForMessage(key)}" is not a setting of this plugin (settings: ` +
        `${Object.keys(schema).join(", ")}).`,
    );
  }
  return field;
}

/** `--set key=value` flags as settings; errors name the flag and what fits. */
export function parseSetFlags(schema: ConfigSchema, flags: string[]): Record<string, SettingValue> {
  const settings: Record<string, SettingValue> = {};
  for (const flag of flags) {
    const eq = flag.indexOf("=");
    if (eq <= 0) {
      throw new UserError(
        `--set "${clipForMessage(flag)}": write it as key=value (value "-" clears).`,
      );
    }
    const key = flag.slice(0, eq).trim();
    const field = fieldOf(schema, key);
    try {
      settings[key] = parseSettingText(field, flag.slice(eq + 1));
    } catch (error) {
      throw new UserError(
        `--set ${clipForMessage(key)}: ${(error as Error).message} (${fieldHint(field)}).`,
      );
    }
  }
  return settings;
}

export type Ask = (question: string) => string | null;

/**
 * Asks for each field, showing the current value (or the default) in brackets: Enter keeps it,
 * "-" clears it. Asks again until the answer fits. Returns only the fields that changed.
 */
export function promptSettings(
  schema: ConfigSchema,
  current: Record<string, unknown>,
  askRaw: Ask,
  tellRaw: (line: string) => void,
): Record<string, SettingValue> {
  // Labels, descriptions and options are the plugin's words: hidden characters are escaped.
  const ask: Ask = (question) => askRaw(visibleText(question));
  const tell = (line: string) => tellRaw(visibleText(line));
  const changes: Record<string, SettingValue> = {};
  for (const [key, field] of Object.entries(schema)) {
    const stored = ownValue(current, key);
    const shown = settingText(field, stored ?? field.default);
    if (field.description) tell(`${field.label}: ${field.description}`);
    for (;;) {
      const answer = ask(`${field.label} (${key}; ${fieldHint(field)}) [${shown}]:`);
      if (answer === null) throw new UserError("Cancelled: no answer; nothing was saved.");
      if (answer.trim() === "") break;
      try {
        const value = parseSettingText(field, answer);
        if (value !== null || stored !== undefined) changes[key] = value;
        break;
      } catch (error) {
        tell(`  ${(error as Error).message}; try again (Enter keeps [${shown}]).`);
      }
    }
  }
  return changes;
}
