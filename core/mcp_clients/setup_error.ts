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
 * The keys that say how a client reaches a server, and so belong to hub. When hub writes its
 * entry, these keys of an existing entry are replaced or removed (a `url` left over from http
 * would confuse a stdio entry; an `env` naming an old config folder would mislead the bridge);
 * every other key the user or the client added (`disabled`, `timeout`, tool lists) is kept.
 */
export const TRANSPORT_KEYS: ReadonlySet<string> = new Set([
  "type",
  "url",
  "serverUrl",
  "httpUrl",
  "headers",
  "http_headers",
  "env_http_headers",
  "bearer_token_env_var",
  "command",
  "args",
  "env",
  "cwd",
]);

/** The entry to write: hub's keys, plus the existing entry's keys that are not about transport. */
export function mergedEntry(
  existing: unknown,
  entry: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof existing !== "object" || existing === null || Array.isArray(existing)) return entry;
  const kept = Object.entries(existing).filter(([k]) => !TRANSPORT_KEYS.has(k) && !(k in entry));
  return { ...entry, ...Object.fromEntries(kept) };
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
