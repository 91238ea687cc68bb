import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import {
  boundProblems,
  hasMoreValues,
  MAX_PROBLEM_CHARS,
  MAX_PROBLEMS,
  MAX_PROBLEMS_CHARS,
} from "./validation_problems.ts";

Deno.test("a few problems are reported as they are", () => {
  assertEquals(boundProblems(["a: is required", "b: must be string"]), [
    "a: is required",
    "b: must be string",
  ]);
});

Deno.test("more problems than the limit end with how many more there are", () => {
  const problems = Array.from({ length: 12 }, (_, i) => `f${i}: must be string`);
  const out = boundProblems(problems);
  assertEquals(out.length, MAX_PROBLEMS + 1);
  assertEquals(out.at(-1), `…and ${12 - MAX_PROBLEMS} more`);
  assertEquals(boundProblems(problems.slice(0, 2), 40).at(-1), "…and 38 more");
});

Deno.test("long problems are cut, and all of them together stay under the size cap", () => {
  const out = boundProblems(new Array(1000).fill("x".repeat(100_000)));
  for (const line of out) assert(line.length <= MAX_PROBLEM_CHARS);
  const chars = out.slice(0, -1).reduce((n, l) => n + l.length, 0);
  assert(chars <= MAX_PROBLEMS_CHARS, `${chars} characters`);
  assert(out.at(-1)!.startsWith("…and "));
});

Deno.test("hasMoreValues counts every value and stops at the limit", () => {
  assertEquals(hasMoreValues({ a: [1, 2], b: "x" }, 5), false); // object, array, 1, 2, "x"
  assertEquals(hasMoreValues({ a: [1, 2], b: "x" }, 4), true);
  assertEquals(hasMoreValues(new Array(1_000_000).fill(0), 10), true);
  assertEquals(hasMoreValues("text", 1), false);
});
