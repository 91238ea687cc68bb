/** Assertions for tests: node:assert/strict under the names our tests use. */
import assert from "node:assert/strict";

export { assert };
export const assertEquals: <T>(actual: unknown, expected: T, message?: string) => void =
  assert.deepStrictEqual;
export const assertMatch: (value: string, regexp: RegExp, message?: string) => void = assert.match;
export const assertRejects = assert.rejects;
export const assertThrows = assert.throws;
