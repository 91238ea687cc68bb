/**
 * Whether two JSON values are equal: the same primitives, arrays with equal items in order,
 * objects with the same keys (in any order) and equal values. The generated schema check
 * (`_schema_check.js`) uses it for `uniqueItems`, in place of ajv's own helper, which is a
 * CommonJS module: importing that at start would load Deno's Node compatibility layer.
 */
export default function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}
