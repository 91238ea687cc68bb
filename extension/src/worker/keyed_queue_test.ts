/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createKeyedQueue } from "./keyed_queue.ts";

Deno.test("a key's work runs in order, one at a time; other keys do not wait; a failure stays its own", async () => {
  const queue = createKeyedQueue<number>();
  const seen: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const first = queue.run(1, async () => {
    await held;
    seen.push("1a");
  });
  const failing = queue.run(1, () => {
    seen.push("1b");
    throw new Error("no");
  });
  const third = queue.run(1, () => seen.push("1c"));
  await queue.run(2, () => seen.push("2a"));
  assertEquals(seen, ["2a"]);
  release();
  await first;
  assertEquals(await failing.catch((e) => e.message), "no");
  await third;
  assertEquals(seen, ["2a", "1a", "1b", "1c"]);
});

Deno.test("a forgotten key's new work does not wait for the old", async () => {
  const queue = createKeyedQueue<number>();
  void queue.run(1, () => new Promise(() => {})); // never ends
  queue.forget(1);
  assertEquals(await queue.run(1, () => "ran"), "ran");
});
