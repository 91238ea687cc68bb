import { assertEquals } from "../../tests/helpers/assert.ts";
import jsonEqual from "./json_equal.ts";

Deno.test("jsonEqual compares JSON values deeply, object keys in any order", () => {
  const equal: [unknown, unknown][] = [
    [1, 1],
    ["a", "a"],
    [null, null],
    [true, true],
    [[], []],
    [{}, {}],
    [[1, [2, { a: 3 }]], [1, [2, { a: 3 }]]],
    [{ a: 1, b: { c: [1] } }, { b: { c: [1] }, a: 1 }],
  ];
  const different: [unknown, unknown][] = [
    [1, "1"],
    [0, null],
    [null, {}],
    [[], {}],
    [{ length: 0 }, []],
    [[1, 2], [2, 1]],
    [[1], [1, 1]],
    [{ a: 1 }, { a: 1, b: 1 }],
    [{ a: undefined }, { b: undefined }],
    [{ a: { b: 1 } }, { a: { b: 2 } }],
  ];
  for (const [a, b] of equal) assertEquals([jsonEqual(a, b), jsonEqual(b, a)], [true, true]);
  for (const [a, b] of different) assertEquals([jsonEqual(a, b), jsonEqual(b, a)], [false, false]);
});
