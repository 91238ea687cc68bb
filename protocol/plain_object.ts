/** Whether a JSON value is an object with keys (not null, not an array): the one check for it. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
