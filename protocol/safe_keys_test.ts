/// <reference lib="deno.ns" />
import { assert, assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { clipForMessage } from "./clip.ts";
import {
  assertSafeKey,
  isReservedKey,
  ownValue,
  RESERVED_KEYS,
  reservedKeyError,
  withoutReservedKeys,
} from "./safe_keys.ts";

Deno.test("every Object.prototype name and prototype are reserved; ordinary names are not", () => {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    assert(isReservedKey(name), name);
  }
  for (const name of ["__proto__", "constructor", "prototype", "toString", "valueOf"]) {
    assert(RESERVED_KEYS.has(name), name);
  }
  for (const name of ["limit", "baseUrl", "echo", "proto", "Constructor", "to_string", ""]) {
    assertEquals(isReservedKey(name), false, name);
  }
});

Deno.test("reservedKeyError names the key and what it was meant to be, and says what to do", () => {
  assertEquals(reservedKeyError("limit", "setting"), undefined);
  const message = reservedKeyError("constructor", "setting")!;
  assert(message.startsWith('"constructor" is reserved and cannot be a setting name'), message);
  assert(message.includes("use another name"), message);
  assertThrows(() => assertSafeKey("__proto__", "plugin"), /"__proto__" is reserved.*plugin name/);
  assertSafeKey("demo", "plugin");
});

Deno.test("ownValue reads own properties only, even of objects parsed from JSON", () => {
  const parsed = JSON.parse('{"a": 1, "__proto__": {"b": 2}}');
  assertEquals(ownValue(parsed, "a"), 1);
  assertEquals(ownValue(parsed, "__proto__"), { b: 2 }, "an own __proto__ key is data");
  const plain: Record<string, number> = { a: 1 };
  for (const key of ["constructor", "toString", "hasOwnProperty", "__proto__", "b"]) {
    assertEquals(ownValue(plain, key), undefined, key);
  }
  assertEquals(ownValue(undefined, "a"), undefined);
  assertEquals(ownValue(null, "a"), undefined);
});

Deno.test("withoutReservedKeys drops reserved keys into a fresh plain object", () => {
  const parsed = JSON.parse('{"a": 1, "__proto__": {"polluted": true}, "constructor": 2}');
  const { kept, dropped } = withoutReservedKeys(parsed);
  assertEquals(kept, { a: 1 });
  assertEquals(dropped, ["__proto__", "constructor"]);
  assertEquals(Object.getPrototypeOf(kept), Object.prototype);
  assertEquals(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("clipForMessage keeps short text and cuts long text with its length", () => {
  assertEquals(clipForMessage("short"), "short");
  const long = clipForMessage("x".repeat(10_000));
  assert(long.length < 120, long);
  assert(long.endsWith("(10000 characters)"), long);
});
