/**
 * A plugin's settings form as plain data: the fields its `configSchema` declares, the values the
 * form starts from (the hub's resolved settings), the settings object a filled-in form stands for
 * (only what changed; a cleared field becomes null, which puts the default back), and the hub's
 * refusal split into one message per field. No DOM here, so it is unit-tested. The hub checks
 * every value again (`config.setPluginSettings`); the form only turns text into typed values.
 */
import { DEFAULT_INSTANCE, instanceMap } from "../../../protocol/plugin_settings.ts";
import { isPlainObject } from "../../../protocol/plain_object.ts";

export type FieldKind = "url" | "select" | "boolean" | "number" | "string";

export interface FormField {
  key: string;
  kind: FieldKind;
  label: string;
  description?: string;
  /** select */
  options?: string[];
  /** number */
  min?: number;
  max?: number;
  integer?: boolean;
  /** url */
  required?: boolean;
}

/** One row of an instance map editor. */
export interface InstanceRow {
  name: string;
  url: string;
}

/** What a form control holds: text (number, select, string), a checkbox, or instance rows. */
export type RawValue = string | boolean | InstanceRow[];

const KINDS: readonly FieldKind[] = ["url", "select", "boolean", "number", "string"];

const optionalNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : undefined;

/** The fields of a schema the form can edit; keys of unknown types are listed in `skipped`. */
export function formFields(schema: Record<string, unknown> | undefined): {
  fields: FormField[];
  skipped: string[];
} {
  const fields: FormField[] = [];
  const skipped: string[] = [];
  for (const [key, raw] of Object.entries(schema ?? {})) {
    const f = isPlainObject(raw) ? raw : {};
    const kind = KINDS.find((k) => k === f.type);
    const options = Array.isArray(f.options) ? f.options.filter((o) => typeof o === "string") : [];
    if (!kind || (kind === "select" && options.length === 0)) {
      skipped.push(key);
      continue;
    }
    const field: FormField = {
      key,
      kind,
      label: typeof f.label === "string" && f.label ? f.label : key,
    };
    if (typeof f.description === "string" && f.description) field.description = f.description;
    if (kind === "select") field.options = options;
    if (kind === "number") {
      const min = optionalNumber(f.min);
      const max = optionalNumber(f.max);
      if (min !== undefined) field.min = min;
      if (max !== undefined) field.max = max;
      if (f.integer === true) field.integer = true;
    }
    if (kind === "url" && f.required === true) field.required = true;
    fields.push(field);
  }
  return { fields, skipped };
}

/** The form's starting value of a field, from the plugin's (resolved) settings. */
export function initialValue(field: FormField, settings: Record<string, unknown>): RawValue {
  const value = Object.hasOwn(settings, field.key) ? settings[field.key] : undefined;
  switch (field.kind) {
    case "url": {
      const map = instanceMap(value) ?? {};
      const rows = Object.entries(map).map(([name, url]) => ({ name, url: String(url) }));
      return rows.length ? rows : [{ name: DEFAULT_INSTANCE, url: "" }];
    }
    case "boolean":
      return value === true;
    default:
      return value === undefined || value === null ? "" : String(value);
  }
}

/** Instance rows as the map the hub stores; empty rows are dropped, an unnamed single row is "default". */
export function rowsToMap(rows: InstanceRow[]): { map: Record<string, string>; error?: string } {
  const filled = rows
    .map((r) => ({ name: r.name.trim(), url: r.url.trim() }))
    // The blank "default" row the form starts with counts as empty.
    .filter((r) => r.url || (r.name && r.name !== DEFAULT_INSTANCE));
  const map: Record<string, string> = {};
  for (const row of filled) {
    const name = row.name || (filled.length === 1 ? DEFAULT_INSTANCE : "");
    if (!name) return { map, error: `give the instance at ${row.url} a name` };
    if (!row.url) return { map, error: `instance "${name}" needs a URL` };
    if (Object.hasOwn(map, name)) return { map, error: `instance "${name}" is listed twice` };
    map[name] = row.url;
  }
  return { map };
}

/** A typed value for a field, null to clear it, or an error for text that is no value. */
function typedValue(field: FormField, raw: RawValue): { value: unknown } | { error: string } {
  switch (field.kind) {
    case "url": {
      const { map, error } = rowsToMap(Array.isArray(raw) ? raw : []);
      if (error) return { error };
      return { value: Object.keys(map).length ? map : null };
    }
    case "boolean":
      return { value: raw === true };
    case "number": {
      const text = String(raw).trim();
      if (!text) return { value: null };
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number` };
    }
    default: {
      const text = String(raw).trim();
      return { value: text === "" ? null : text };
    }
  }
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` compare equal. */
function canonical(value: unknown): string {
  if (value === undefined) return "null";
  if (!isPlainObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

function sameValue(field: FormField, next: unknown, current: unknown): boolean {
  const now = field.kind === "url" ? instanceMap(current) ?? null : current ?? null;
  return canonical(next) === canonical(now);
}

export interface ParsedForm {
  /** The changed settings, as `config.setPluginSettings` takes them. */
  settings: Record<string, unknown>;
  /** Field key → what is wrong with its text. */
  errors: Record<string, string>;
}

/** The settings a filled-in form stands for: only fields that differ from `current`. */
export function parseForm(
  fields: FormField[],
  raw: Record<string, RawValue>,
  current: Record<string, unknown>,
): ParsedForm {
  const settings: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (!Object.hasOwn(raw, field.key)) continue;
    const typed = typedValue(field, raw[field.key]);
    if ("error" in typed) errors[field.key] = typed.error;
    else if (!sameValue(field, typed.value, current[field.key])) {
      settings[field.key] = typed.value;
    }
  }
  return { settings, errors };
}

/**
 * The hub's refusal of settings (`Settings of "x": key: problem; key2: problem`) as one message
 * per field it names; what names no field is `rest`.
 */
export function fieldErrors(
  message: string,
  keys: string[],
): { byField: Record<string, string>; rest?: string } {
  const prefixed = /^Settings of "[^"]*":\s*/.exec(message);
  const body = prefixed ? message.slice(prefixed[0].length) : message;
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  let last: string | undefined;
  for (const part of body.split("; ")) {
    const key = keys.find((k) => part.startsWith(`${k}: `));
    if (key) {
      const problem = part.slice(key.length + 2);
      byField[key] = byField[key] ? `${byField[key]}; ${problem}` : problem;
      last = key;
    } else if (last && prefixed && !/^and \d+ more problems?$/.test(part)) {
      byField[last] += `; ${part}`; // a problem that itself contained "; "
    } else rest.push(part);
  }
  return Object.keys(byField).length === 0
    ? { byField, rest: message }
    : { byField, ...(rest.length ? { rest: rest.join("; ") } : {}) };
}
