/// <reference lib="deno.ns" />
import { assertEquals, assertRejects } from "../tests/helpers/assert.ts";
import { withTimeout } from "./with_timeout.ts";

const after = <T>(ms: number, value: T) =>
  new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

Deno.test("withTimeout gives the promise's value when it settles in time", async () => {
  assertEquals(await withTimeout(after(5, "done"), 1_000, "late"), "done");
});

Deno.test("withTimeout gives the fallback when time runs out first", async () => {
  const slow = after(200, "done");
  assertEquals(await withTimeout(slow, 10, "late"), "late");
  await slow; // no timer of the test left behind
});

Deno.test("withTimeout passes a rejection through and clears its timer", async () => {
  await assertRejects(withTimeout(Promise.reject(new Error("boom")), 60_000, "late"), /boom/);
});
