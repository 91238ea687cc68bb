/**
 * Keys that come from outside (plugin, tool, setting and instance names typed by a person or sent
 * by a client) and end up as keys of plain objects. The names of `Object.prototype`'s members are
 * refused: read from a plain object they find an inherited function instead of nothing, and
 * `__proto__` written through one replaces the object's prototype. Lookups by such keys read own
 * properties only. Pure and DOM-safe: the server, the CLI, the extension and the SDK share it.
 */

/** The members every engine has on Object.prototype (a new engine may add more, see below). */
const KNOWN_PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
];

/** Refused as keys: every own name of Object.prototype in this engine, and `prototype`. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  ...KNOWN_PROTOTYPE_NAMES,
  ...Object.getOwnPropertyNames(Object.prototype),
  "prototype",
]);

/** True when `key` names a member of Object.prototype (or is `prototype`). */
export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

/**
 * Why `key` cannot name a `what` ("setting", "plugin", "tool"…), or undefined when it can.
 * The message says what is wrong and what to do.
 */
export function reservedKeyError(key: string, what = "key"): string | undefined {
  if (!RESERVED_KEYS.has(key)) return undefined;
  const article = /^[aeiou]/i.test(what) ? "an" : "a";
  return `"${key}" is reserved and cannot be ${article} ${what} name: names of built-in ` +
    "JavaScript object members (__proto__, constructor, prototype, toString, valueOf…) are " +
    "refused; use another name";
}

/** Throws an Error with `reservedKeyError`'s message when `key` is reserved. */
export function assertSafeKey(key: string, what = "key"): void {
  const problem = reservedKeyError(key, what);
  if (problem) throw new Error(problem);
}

/** `record[key]` when `key` is the record's own property, else undefined (never inherited). */
export function ownValue<T>(
  record: Readonly<Record<string, T>> | null | undefined,
  key: string,
): T | undefined {
  if (record === null || record === undefined || typeof record !== "object") return undefined;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A fresh copy of `record` without reserved keys, and the keys it left out. */
export function withoutReservedKeys<T>(
  record: Readonly<Record<string, T>>,
): { kept: Record<string, T>; dropped: string[] } {
  const dropped: string[] = [];
  const entries: [string, T][] = [];
  for (const [key, value] of Object.entries(record)) {
    if (RESERVED_KEYS.has(key)) dropped.push(key);
    else entries.push([key, value]);
  }
  return { kept: Object.fromEntries(entries), dropped };
}
