/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { formatArgs, formatSource, MAX_ENTRY_CHARS } from "./console_format.ts";

Deno.test("strings print as they are, other values JSON-ish, joined by spaces", () => {
  assertEquals(formatArgs(["hello", "world"]), "hello world");
  assertEquals(formatArgs([1, true, null, undefined, 10n]), "1 true null undefined 10n");
  assertEquals(
    formatArgs(["x", { a: 1, b: "two", c: [1, "3"] }]),
    'x {"a": 1, "b": "two", "c": [1, "3"]}',
  );
  assertEquals(formatArgs([Symbol("s")]), "Symbol(s)");
  assertEquals(formatArgs([function named() {}, () => 1]), "[function named] [function anonymous]");
  assertEquals(formatArgs([]), "");
});

Deno.test("format directives are filled in like the console does", () => {
  assertEquals(
    formatArgs(["%s is %d years (%i), %f%%", "Ada", 36.6, "7.9", 1.5]),
    "Ada is 36 years (7), 1.5%",
  );
  assertEquals(formatArgs(["%cstyled", "color: red"]), "styled");
  assertEquals(formatArgs(["%o and %O", { a: 1 }, [2]]), '{"a": 1} and [2]');
  assertEquals(formatArgs(["%s %s", "only one"]), "only one %s");
  assertEquals(formatArgs(["%s", "a", "extra", 3]), "a extra 3");
  assertEquals(formatArgs(["%d", { valueOf: () => 5 }]), "NaN", "objects are not converted");
});

Deno.test("errors print with their stack at the top level, name and message inside", () => {
  const error = new TypeError("boom");
  assert(formatArgs([error]).startsWith("TypeError: boom\n    at "), formatArgs([error]));
  assertEquals(formatArgs([{ e: error }]), '{"e": TypeError: boom}');
  assertEquals(formatArgs(["failed:", { e: new Error("x") }]), 'failed: {"e": Error: x}');
});

Deno.test("dates, regexps, maps, sets, typed arrays and class instances", () => {
  assertEquals(formatArgs([new Date(0)]), "1970-01-01T00:00:00.000Z");
  assertEquals(formatArgs([/a+b/g]), "/a+b/g");
  assertEquals(formatArgs([new Map([["k", 1]])]), 'Map(1) {"k" => 1}');
  assertEquals(formatArgs([new Set([1, 2])]), "Set(2) {1, 2}");
  assertEquals(formatArgs([new Uint8Array([1, 2])]), "Uint8Array(2) [1, 2]");
  class Point {
    constructor(public x: number) {}
  }
  assertEquals(formatArgs([new Point(3)]), 'Point {"x": 3}');
  assertEquals(formatArgs([Object.create(null)]), "{}");
});

Deno.test("cycles, depth and long collections are bounded", () => {
  const o: Record<string, unknown> = { name: "o" };
  o.self = o;
  assertEquals(formatArgs([o]), '{"name": "o", "self": [circular]}');
  const shared = { v: 1 };
  assertEquals(formatArgs([[shared, shared]]), '[{"v": 1}, {"v": 1}]', "a repeat is not a cycle");
  assertEquals(
    formatArgs([{ a: { b: { c: { d: { e: 1 } } } } }]),
    '{"a": {"b": {"c": {"d": [Object]}}}}',
  );
  const list = formatArgs([Array.from({ length: 150 }, (_, i) => i)]);
  assert(list.endsWith(", 99, …50 more]"), list);
});

Deno.test("getters are never called; unreadable values do not throw", () => {
  let called = false;
  const tricky = {
    get secret() {
      called = true;
      return 1;
    },
  };
  assertEquals(formatArgs([tricky]), '{"secret": [getter]}');
  assertEquals(called, false);
  const hostile = new Proxy({}, {
    ownKeys() {
      throw new Error("no keys");
    },
  });
  assertEquals(formatArgs(["p", hostile, "after"]), "p [unreadable] after");
});

Deno.test("text is capped at MAX_ENTRY_CHARS with a marker, without formatting everything", () => {
  const long = "x".repeat(5000);
  const text = formatArgs([long]);
  assertEquals(text, "x".repeat(MAX_ENTRY_CHARS) + "…[truncated]");
  let reads = 0;
  const huge = Array.from({ length: 100 }, () => ({ get: "y".repeat(100) }));
  const proxy = new Proxy(huge, {
    getOwnPropertyDescriptor(target, key) {
      reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  assert(formatArgs([proxy], 500).endsWith("…[truncated]"));
  assert(reads < 20, `read ${reads} items to write 500 characters`);
  assertEquals(formatArgs(["ab"], 2), "ab", "exactly max is not cut");
});

Deno.test("formatSource runs on its own, in a scope without this module, as formatArgs does", () => {
  const inPage = new Function(`return (${formatSource(50)});`)() as (...args: unknown[]) => string;
  const cycle: Record<string, unknown> = { name: "loop" };
  cycle.self = cycle;
  const samples: unknown[][] = [
    ["%s is %d", "Ada", 36.6, { extra: [1, 2] }],
    [new Map([["k", new Set([1])]]), cycle, new Error("boom")],
    ["x".repeat(80)],
  ];
  for (const args of samples) assertEquals(inPage(...args), formatArgs(args, 50));
  assert(inPage("x".repeat(80)).endsWith("…[truncated]"));
});
