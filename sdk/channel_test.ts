import { assertEquals } from "../tests/helpers/assert.ts";
import { toJsonSafe } from "./channel.ts";

Deno.test("toJsonSafe keeps an own __proto__ key as data and never changes the copy's prototype", () => {
  const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const copy = toJsonSafe(value) as Record<string, unknown>;
  assertEquals(Object.getPrototypeOf(copy), Object.prototype);
  assertEquals(Object.hasOwn(copy, "__proto__"), true);
  assertEquals(JSON.stringify(copy), '{"__proto__":{"polluted":true},"a":1}');
  assertEquals(({} as Record<string, unknown>).polluted, undefined);
});
