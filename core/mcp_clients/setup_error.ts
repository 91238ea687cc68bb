/**
 * The one error of `hub setup`'s file edits: a settings file hub will not change (it does not
 * parse, its servers key is not an object, it is read-only, a link leads out of the home folder).
 * A user error: the CLI prints its message, bounded, and the file is left as it was.
 */
import { clip } from "../../protocol/clip.ts";
import { UserError } from "../cli/user_error.ts";

/** The code of every `SetupError` (`isUserError(error, SETUP_REFUSED)`). */
export const SETUP_REFUSED = "SETUP_REFUSED";

/** The longest message a `SetupError` carries. */
const MAX_MESSAGE_CHARS = 600;

/** Where in a file a problem is, when the file did not parse. */
export interface SetupErrorDetails {
  path?: string;
  line?: number;
  column?: number;
}

export class SetupError extends UserError {
  constructor(message: string, details: SetupErrorDetails = {}) {
    super(clip(message, MAX_MESSAGE_CHARS), { code: SETUP_REFUSED, details });
    this.name = "SetupError";
  }
}

/** The outcome of one edit: the whole text before ("" for no file) and after. */
export type EditOutcome = {
  kind: "added" | "updated" | "removed" | "up-to-date" | "absent";
  before: string;
  after: string;
};

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split("\n");
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** A date as text, to the millisecond (a TOML date: as written); anything else: its type. */
function dateText(value: object): string {
  if (!(value instanceof Date)) return typeof value;
  try {
    return value.toISOString();
  } catch {
    return String(value); // an invalid date
  }
}

/** Whether two parsed values are equal, object key order aside. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return dateText(a) === dateText(b); // TOML dates
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameValue(v, other[i]));
  }
  const x = a as Record<string, unknown>, y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length &&
    keys.every((k) => Object.hasOwn(y, k) && sameValue(x[k], y[k]));
}

/**
 * The keys of an existing hub entry that `hub setup` keeps when it rewrites the entry: only keys
 * that switch the server off, bound its time or narrow its tools. Every other key is dropped (an
 * `env`, `envFile`, `cwd` or `env_vars` could change how hub runs; a `trust` or `autoApprove`
 * could skip the user's confirmation of hub's tools; an old transport's `url` or `headers` would
 * confuse the new one), so an entry shipped in a cloned project cannot ride along.
 */
export const KEPT_KEYS: ReadonlySet<string> = new Set([
  "disabled",
  "enabled",
  "timeout",
  "startup_timeout_sec",
  "tool_timeout_sec",
  "enabled_tools",
  "disabled_tools",
  "includeTools",
  "excludeTools",
]);

/** The entry to write: hub's keys, plus the existing entry's keys in KEPT_KEYS. */
export function mergedEntry(
  existing: unknown,
  entry: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof existing !== "object" || existing === null || Array.isArray(existing)) return entry;
  const kept = Object.entries(existing).filter(([k]) => KEPT_KEYS.has(k) && !(k in entry));
  return { ...entry, ...Object.fromEntries(kept) };
}

/** Options of an edit. `force`: replace or remove an entry with hub's name that is not hub's. */
export interface EditOptions {
  force?: boolean;
}

/** Refuses to change an existing entry named `name` that hub did not write, unless `force`. */
export function checkOwnEntry(
  existing: unknown,
  name: string,
  isHub: boolean,
  options: EditOptions = {},
): void {
  if (existing === undefined || isHub || options.force) return;
  const shown = JSON.stringify(clip(name, 40));
  throw new SetupError(
    `an entry named ${shown} is there that hub did not write; hub did not change it: pass --name <another name> to add hub beside it, or --force to replace it`,
  );
}

/** `value` with plain objects (parsers give objects without a prototype), dates kept. */
export function plainValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
}

/** The longest server name hub writes. */
export const MAX_SERVER_NAME_CHARS = 100;

/** Refuses a server name no client could show or hub could write safely. */
export function checkServerName(name: string): void {
  const unsafe = name === "__proto__" || name === "constructor" || name === "prototype";
  const control = [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (name.trim() === "" || name.length > MAX_SERVER_NAME_CHARS || control || unsafe) {
    const shown = JSON.stringify(clip(name, 40));
    throw new SetupError(
      `${shown} cannot be a server name: use letters, digits, "-" or "_" (at most ${MAX_SERVER_NAME_CHARS} characters)`,
    );
  }
}

/** A file's byte-order mark, kept as it was by every edit. */
export const BOM = "\uFEFF";

/** The opening of an entry edit: refuses a bad server name, then splits off `text`'s BOM. */
export function startEdit(text: string, name: string): { bom: string; body: string } {
  checkServerName(name);
  const bom = text.startsWith(BOM) ? BOM : "";
  return { bom, body: text.slice(bom.length) };
}
